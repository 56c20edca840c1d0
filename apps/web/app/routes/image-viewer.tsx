import { useCallback } from "react";
import { Link, useLocation, useNavigate, useParams, type MetaDescriptor } from "react-router";
import { ImageViewer, type ImageViewerImage } from "@atelier/image-viewer";
import { IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID, serializeImageViewerPageData, type ImageViewerPageData } from "@atelier/image-viewer/dom";
import "@atelier/image-viewer/styles.css";
import type { Route } from "./+types/image-viewer";
import { findPaintingImage, type Painting, type PaintingImage } from "@atelier/catalogue";
import { findPaintingForPath } from "../lib/painting-from-path.ts";
import { createPageMeta } from "../lib/site-meta.ts";
import { imageViewerShellHandle, useSiteShell } from "../site-shell/use-site-shell.ts";

/** Prerendered without React, with the viewer's own script: see decision 0037. */
export const handle = imageViewerShellHandle;

/** The meta of one image's page; its title is also the document's title when the viewer's script shows that image. */
function imageViewerPageMeta(painting: Painting, image: PaintingImage): MetaDescriptor[] {
  return createPageMeta({
    title: `${image.alt} – ${painting.title}`,
    description: `${image.alt}, from the original painting ${painting.title} (${painting.medium}, ${painting.sizeCm} cm).`,
    path: `/${painting.id}/image/${image.id}`,
    imagePath: image.full,
    imageAlt: image.alt,
  });
}

function documentTitleOf(meta: readonly MetaDescriptor[]): string {
  for (const descriptor of meta) if ("title" in descriptor && typeof descriptor.title === "string") return descriptor.title;
  return "";
}

export const meta = ({ location, params }: Route.MetaArgs) => {
  const painting = findPaintingForPath(location.pathname);
  const found = painting && params.imageId ? findPaintingImage(painting.id, params.imageId) : undefined;
  if (!found) return [{ title: "Image not found" }, { name: "robots", content: "noindex" }];
  return imageViewerPageMeta(found.painting, found.image);
};

/** The viewer shows the largest variant at its natural size, so it takes the last `srcset` candidate without its width. */
function largestCandidateUrl(sourceSet: string): string {
  return sourceSet.split(",").at(-1)?.trim().split(/\s+/)[0] ?? "";
}

function toViewerImage(image: PaintingImage): ImageViewerImage {
  return {
    id: image.id,
    src: image.full,
    alt: image.alt,
    width: image.width,
    height: image.height,
    sources: [
      { type: "image/avif", srcSet: largestCandidateUrl(image.sources.avifSrcSet) },
      { type: "image/webp", srcSet: largestCandidateUrl(image.sources.webpSrcSet) },
    ],
  };
}

/** What the viewer's script needs on the prerendered page, which React never hydrates. */
function createViewerPageData(painting: Painting, currentIndex: number): ImageViewerPageData {
  return {
    title: painting.title,
    currentIndex,
    closeHref: `/${painting.id}`,
    images: painting.images.map((image) => ({
      ...toViewerImage(image),
      href: `/${painting.id}/image/${image.id}`,
      documentTitle: documentTitleOf(imageViewerPageMeta(painting, image)),
    })),
  };
}

export default function ImageViewerPage() {
  const location = useLocation();
  const shell = useSiteShell();
  const { imageId } = useParams();
  const navigate = useNavigate();
  const painting = findPaintingForPath(location.pathname);
  const found = painting && imageId ? findPaintingImage(painting.id, imageId) : undefined;

  // The painting page gives focus back to the link that opened this image (keyboard users land where they were).
  const close = useCallback(() => {
    if (painting) navigate(`/${painting.id}`, { state: { focusImageId: found?.image.id } });
  }, [navigate, painting, found]);

  const showImageAtIndex = useCallback(
    (index: number) => {
      const image = painting?.images[index];
      if (painting && image) navigate(`/${painting.id}/image/${image.id}`, { replace: true });
    },
    [navigate, painting],
  );

  if (!painting || !found) {
    return (
      <main className="image-not-found">
        <h1>Image not found</h1>
        <Link to="/" className="atelier-button atelier-button--primary atelier-button--medium">
          Go Home
        </Link>
      </main>
    );
  }

  const viewerImages = painting.images.map(toViewerImage);

  return (
    <>
      <ImageViewer
        title={painting.title}
        description={found.image.alt}
        images={viewerImages}
        currentIndex={found.imageIndex}
        onClose={close}
        onNavigateToIndex={showImageAtIndex}
      />
      {shell === "static" ? (
        <script
          type="application/json"
          id={IMAGE_VIEWER_PAGE_DATA_ELEMENT_ID}
          dangerouslySetInnerHTML={{ __html: serializeImageViewerPageData(createViewerPageData(painting, found.imageIndex)) }}
        />
      ) : null}
    </>
  );
}
