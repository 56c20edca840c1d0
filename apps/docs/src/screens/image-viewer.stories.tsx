import type { Meta, StoryObj } from "@storybook/react-vite";
import { ImageViewer, type ImageViewerImage } from "@atelier/image-viewer";
import "@atelier/image-viewer/styles.css";
import { expect, fn, userEvent, waitFor, within } from "storybook/test";

/** A canvas drawn in SVG, so the story needs no photograph. */
function paintingPlaceholder(colour: string, label: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200" viewBox="0 0 1200 1200"><rect width="1200" height="1200" fill="${colour}"/><text x="600" y="620" font-size="72" text-anchor="middle" fill="#fff" font-family="serif">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const images: ImageViewerImage[] = [
  { id: "1", src: paintingPlaceholder("#6b3a2e", "Janus Unmasked"), alt: "Janus Unmasked, the whole canvas", width: 1200, height: 1200 },
  { id: "2", src: paintingPlaceholder("#2e4a6b", "Detail"), alt: "Janus Unmasked, a detail of the face", width: 1200, height: 1200 },
];

const meta = {
  title: "Screens/Image viewer",
  component: ImageViewer,
  args: { title: "Janus Unmasked", description: "Acrylic on canvas, 100 × 100 cm", images, currentIndex: 0, onClose: fn(), onNavigateToIndex: fn() },
  parameters: { layout: "fullscreen" },
} satisfies Meta<typeof ImageViewer>;

export default meta;
type Story = StoryObj<typeof meta>;

export const FitToScreen: Story = {
  play: async ({ args, canvasElement }) => {
    const viewer = within(canvasElement);
    const image = await viewer.findByRole("img", { name: "Janus Unmasked, the whole canvas" });
    // Shown once loaded (it fades in).
    await waitFor(() => expect(image).toBeVisible());
    await userEvent.keyboard("{ArrowRight}");
    await expect(args.onNavigateToIndex).toHaveBeenCalledWith(1);
    // Left from the first image wraps round to the last.
    await userEvent.keyboard("{ArrowLeft}");
    await expect(args.onNavigateToIndex).toHaveBeenCalledTimes(2);
    await expect(args.onNavigateToIndex).toHaveBeenLastCalledWith(1);
    await userEvent.keyboard("{Escape}");
    await expect(args.onClose).toHaveBeenCalled();
  },
};

export const SecondImageOnAPhone: Story = { args: { currentIndex: 1 }, globals: { viewport: { value: "phone390" } } };
