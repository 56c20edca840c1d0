import type { Meta, StoryObj } from "@storybook/react-vite";
import { Badge, ButtonLink, Card, CardBody, CardFooter, CardMedia, CardTitle } from "@atelier/ui";

const placeholderPainting =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"><rect width="4" height="3" fill="#9bb0c1"/><rect y="1.8" width="4" height="1.2" fill="#c9a66b"/></svg>',
  );

const meta = {
  title: "Components/Card",
  component: Card,
  decorators: [(Story) => <div style={{ maxWidth: "20rem" }}>{Story()}</div>],
} satisfies Meta<typeof Card>;

export default meta;
type Story = StoryObj<typeof meta>;

export const AvailablePainting: Story = {
  render: () => (
    <Card>
      <CardMedia>
        <img src={placeholderPainting} alt="A lake at dusk, painted in blues and ochre" />
      </CardMedia>
      <CardBody>
        <CardTitle>
          <a href="#lake">Evening on the lake</a>
        </CardTitle>
        <p>Oil on canvas, 60 × 45 cm, 2024</p>
      </CardBody>
      <CardFooter>
        <span>CHF 1,200</span>
        <ButtonLink href="https://shop.example" target="_blank" size="small">
          I want this!
        </ButtonLink>
      </CardFooter>
    </Card>
  ),
};

export const SoldPainting: Story = {
  render: () => (
    <Card>
      <CardMedia overlay={<Badge tone="danger">Sold</Badge>}>
        <img src={placeholderPainting} alt="A lake at dusk, painted in blues and ochre" />
      </CardMedia>
      <CardBody>
        <CardTitle>
          <a href="#lake">Evening on the lake</a>
        </CardTitle>
        <p>Oil on canvas, 60 × 45 cm, 2024</p>
      </CardBody>
    </Card>
  ),
};
