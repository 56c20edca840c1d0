import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DueForecastChart, forecastDayLabel } from "./StudyStats.tsx";

afterEach(cleanup);

const wednesdayEvening = new Date("2026-11-25T22:30:00Z");

describe("given the due forecast", () => {
  it("should name today, tomorrow and then the schedule's UTC days", () => {
    expect([0, 1, 2, 6].map((day) => forecastDayLabel(day, wednesdayEvening))).toEqual(["Today", "Tomorrow", "Fri 27 Nov", "Tue 1 Dec"]);
  });

  it("should list one row per day with its count as text", () => {
    render(<DueForecastChart forecast={[12, 1, 0, 4, 0, 0, 9]} now={wednesdayEvening} />);
    expect(screen.getByText("Due in the next 7 days")).toBeTruthy();
    const rows = screen.getAllByRole("listitem").map((row) => row.textContent);
    expect(rows).toEqual(["Today12 cards", "Tomorrow1 card", "Fri 27 Nov0 cards", "Sat 28 Nov4 cards", "Sun 29 Nov0 cards", "Mon 30 Nov0 cards", "Tue 1 Dec9 cards"]);
  });
});
