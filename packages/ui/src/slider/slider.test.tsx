import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { expectNoAxeViolations } from "../test-support/expect-no-axe-violations";
import { Slider } from "./slider";

describe("given an uncontrolled Slider from 20 to 200 in steps of 10", () => {
  function renderWidthSlider(onValueChange = vi.fn()) {
    render(
      <Slider label="Maximum width" min={20} max={200} step={10} defaultValue={100} onValueChange={onValueChange} formatValue={(value) => `${value} cm`} />,
    );
    return { thumb: screen.getByRole("slider", { name: "Maximum width" }), onValueChange };
  }

  it("should show the label and the formatted value, and expose them on the thumb", () => {
    const { thumb } = renderWidthSlider();
    expect(screen.getByText("Maximum width")).toBeTruthy();
    expect(screen.getByText("100 cm")).toBeTruthy();
    expect(thumb.getAttribute("aria-valuenow")).toBe("100");
    expect(thumb.getAttribute("aria-valuetext")).toBe("100 cm");
    expect(thumb.getAttribute("aria-valuemin")).toBe("20");
    expect(thumb.getAttribute("aria-valuemax")).toBe("200");
  });

  it("should move one step with the arrow keys", () => {
    const { thumb, onValueChange } = renderWidthSlider();
    thumb.focus();
    fireEvent.keyDown(thumb, { key: "ArrowRight" });
    expect(thumb.getAttribute("aria-valuenow")).toBe("110");
    expect(screen.getByText("110 cm")).toBeTruthy();
    expect(onValueChange).toHaveBeenLastCalledWith(110);
    fireEvent.keyDown(thumb, { key: "ArrowLeft" });
    fireEvent.keyDown(thumb, { key: "ArrowLeft" });
    expect(thumb.getAttribute("aria-valuenow")).toBe("90");
  });

  it("should jump to min and max with Home and End", () => {
    const { thumb } = renderWidthSlider();
    thumb.focus();
    fireEvent.keyDown(thumb, { key: "End" });
    expect(thumb.getAttribute("aria-valuenow")).toBe("200");
    fireEvent.keyDown(thumb, { key: "ArrowRight" });
    expect(thumb.getAttribute("aria-valuenow")).toBe("200");
    fireEvent.keyDown(thumb, { key: "Home" });
    expect(thumb.getAttribute("aria-valuenow")).toBe("20");
  });

  it("should have no axe violations", async () => {
    const { container } = render(<Slider label="Maximum width" defaultValue={40} />);
    await expectNoAxeViolations(container);
  });
});

describe("given a controlled Slider with a separate thumb label", () => {
  function ControlledSlider() {
    const [value, setValue] = useState(3);
    return <Slider label="Zoom" thumbLabel="Zoom level" min={1} max={5} value={value} onValueChange={setValue} />;
  }

  it("should name the thumb with thumbLabel and follow the state", () => {
    render(<ControlledSlider />);
    const thumb = screen.getByRole("slider", { name: "Zoom level" });
    thumb.focus();
    fireEvent.keyDown(thumb, { key: "ArrowUp" });
    expect(thumb.getAttribute("aria-valuenow")).toBe("4");
    expect(screen.getByText("4")).toBeTruthy();
  });
});
