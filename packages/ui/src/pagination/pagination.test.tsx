import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { expectNoAxeViolations } from "../test-support/expect-no-axe-violations";
import { Pagination } from "./pagination";

function pageButtonLabels(): string[] {
  const navigation = screen.getByRole("navigation", { name: "Pagination" });
  return within(navigation)
    .getAllByRole("button")
    .map((button) => button.textContent ?? "");
}

describe("given page 6 of 12", () => {
  it("should show Previous, five pages centred on 6, and Next", () => {
    render(<Pagination currentPage={6} pageCount={12} onPageChange={() => {}} />);
    expect(pageButtonLabels()).toEqual(["Previous", "4", "5", "6", "7", "8", "Next"]);
  });

  it("should mark only page 6 as current", () => {
    render(<Pagination currentPage={6} pageCount={12} onPageChange={() => {}} />);
    const currentButton = screen.getByRole("button", { name: "Page 6" });
    expect(currentButton.getAttribute("aria-current")).toBe("page");
    expect(currentButton.getAttribute("data-state")).toBe("current");
    expect(screen.getByRole("button", { name: "Page 5" }).hasAttribute("aria-current")).toBe(false);
  });

  it("should report the clicked page, the previous page and the next page", () => {
    const handlePageChange = vi.fn();
    render(<Pagination currentPage={6} pageCount={12} onPageChange={handlePageChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Page 8" }));
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.click(screen.getByRole("button", { name: "Page 6" }));
    expect(handlePageChange.mock.calls).toEqual([[8], [5], [7]]);
  });

  it("should have no axe violations", async () => {
    const { container } = render(<Pagination currentPage={6} pageCount={12} onPageChange={() => {}} />);
    await expectNoAxeViolations(container);
  });
});

describe("given the first and the last page", () => {
  it("should disable Previous on page 1 and shift the window to the start", () => {
    render(<Pagination currentPage={1} pageCount={12} onPageChange={() => {}} />);
    expect(pageButtonLabels()).toEqual(["Previous", "1", "2", "3", "4", "5", "Next"]);
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Previous" }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Next" }).disabled).toBe(false);
  });

  it("should disable Next on the last page and shift the window to the end", () => {
    render(<Pagination currentPage={12} pageCount={12} onPageChange={() => {}} />);
    expect(pageButtonLabels()).toEqual(["Previous", "8", "9", "10", "11", "12", "Next"]);
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Next" }).disabled).toBe(true);
  });
});

describe("given a single page", () => {
  it("should render nothing", () => {
    const { container } = render(<Pagination currentPage={1} pageCount={1} onPageChange={() => {}} />);
    expect(container.innerHTML).toBe("");
  });
});

describe("given translated labels", () => {
  it("should use them for the landmark and the buttons", () => {
    render(
      <Pagination
        currentPage={2}
        pageCount={3}
        onPageChange={() => {}}
        navigationLabel="Seiten"
        previousLabel="Zurück"
        nextLabel="Weiter"
        getPageLabel={(page) => `Seite ${page}`}
      />,
    );
    const navigation = screen.getByRole("navigation", { name: "Seiten" });
    expect(within(navigation).getByRole("button", { name: "Seite 2" }).getAttribute("aria-current")).toBe("page");
    expect(within(navigation).getByRole("button", { name: "Zurück" })).toBeTruthy();
  });
});
