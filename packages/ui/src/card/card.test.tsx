import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Badge } from "../badge/badge";
import { expectNoAxeViolations } from "../test-support/expect-no-axe-violations";
import { Card, CardBody, CardFooter, CardMedia, CardTitle } from "./card";

function SoldPaintingCard() {
  return (
    <Card aria-labelledby="lake-title">
      <CardMedia overlay={<Badge tone="danger">Sold</Badge>}>
        <img src="/lake.jpg" alt="A lake at dusk, painted in blues and ochre" />
      </CardMedia>
      <CardBody>
        <CardTitle id="lake-title">
          <a href="/paintings/lake">Evening on the lake</a>
        </CardTitle>
        <p>Oil on canvas, 2024</p>
      </CardBody>
      <CardFooter>CHF 1,200</CardFooter>
    </Card>
  );
}

describe("given a Card for a sold painting", () => {
  it("should render an article named by its title with a level 3 heading", () => {
    render(<SoldPaintingCard />);
    const article = screen.getByRole("article", { name: "Evening on the lake" });
    expect(article.className).toBe("atelier-card");
    expect(screen.getByRole("heading", { level: 3, name: "Evening on the lake" }).className).toBe("atelier-card__title");
  });

  it("should place the Sold badge inside the media overlay", () => {
    render(<SoldPaintingCard />);
    const overlay = screen.getByText("Sold").parentElement;
    expect(overlay?.className).toBe("atelier-card__overlay");
    expect(overlay?.parentElement?.className).toBe("atelier-card__media");
  });

  it("should have no axe violations", async () => {
    const { container } = render(<SoldPaintingCard />);
    await expectNoAxeViolations(container);
  });
});

describe("given a CardTitle with headingLevel 2 and a CardMedia without overlay", () => {
  it("should render an h2 and no overlay element", () => {
    const { container } = render(
      <Card>
        <CardMedia>
          <img src="/a.jpg" alt="" />
        </CardMedia>
        <CardTitle headingLevel={2}>Alps</CardTitle>
      </Card>,
    );
    expect(screen.getByRole("heading", { level: 2, name: "Alps" })).toBeTruthy();
    expect(container.querySelector(".atelier-card__overlay")).toBeNull();
  });
});
