import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { expectNoAxeViolations } from "../test-support/expect-no-axe-violations";
import { ToastProvider, ToastViewport, useToast } from "./toast";
import { createToastStore } from "./toast-store";

function SaveButton({ durationMilliseconds }: { durationMilliseconds?: number }) {
  const { showToast } = useToast();
  return (
    <button type="button" onClick={() => showToast({ message: "Painting saved", tone: "success", durationMilliseconds })}>
      Save
    </button>
  );
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("given a ToastProvider with a viewport", () => {
  function renderApp(durationMilliseconds?: number) {
    return render(
      <ToastProvider>
        <SaveButton durationMilliseconds={durationMilliseconds} />
        <ToastViewport />
      </ToastProvider>,
    );
  }

  it("should render an empty polite status region before any toast", () => {
    renderApp();
    const viewport = screen.getByRole("status");
    expect(viewport.getAttribute("aria-live")).toBe("polite");
    expect(viewport.childElementCount).toBe(0);
  });

  it("should show a toast inside the region and remove it after 300 ms", () => {
    renderApp();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    const toast = screen.getByText("Painting saved").parentElement;
    expect(toast?.className).toBe("atelier-toast atelier-toast--success");
    expect(toast?.getAttribute("data-state")).toBe("open");
    expect(screen.getByRole("status").contains(toast ?? null)).toBe(true);
    act(() => vi.advanceTimersByTime(299));
    expect(screen.queryByText("Painting saved")).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText("Painting saved")).toBeNull();
  });

  it("should remove a toast from its dismiss button before it expires", () => {
    renderApp(5000);
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    fireEvent.click(screen.getByRole("button", { name: "Dismiss notification" }));
    expect(screen.queryByText("Painting saved")).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("should cancel pending timers on unmount", () => {
    const { unmount } = renderApp();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("should have no axe violations with a toast shown", async () => {
    vi.useRealTimers();
    const { container } = renderApp(60_000);
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await expectNoAxeViolations(container);
  });
});

describe("given a ToastProvider with its own store", () => {
  it("should render toasts shown through that store", () => {
    const store = createToastStore();
    render(
      <ToastProvider store={store}>
        <ToastViewport />
      </ToastProvider>,
    );
    act(() => {
      store.showToast({ message: "Welcome back", tone: "neutral" });
    });
    expect(screen.getByText("Welcome back").parentElement?.className).toBe("atelier-toast atelier-toast--neutral");
  });
});

describe("given useToast outside a ToastProvider", () => {
  it("should throw an error that says how to fix it", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => render(<SaveButton />)).toThrow("useToast was called outside a ToastProvider; wrap the app (or the test) in <ToastProvider>.");
    vi.mocked(console.error).mockRestore();
  });
});
