import { useCallback } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { ImageViewer } from "@atelier/image-viewer";
import "@atelier/image-viewer/styles.css";
import type { Route } from "./+types/image-viewer";
import { findPaintingImage } from "@atelier/catalogue";
import { findPaintingForPath } from "../lib/painting-from-path.ts";
import { createPageMeta } from "../lib/site-meta.ts";

export const meta = ({ location, params }: Route.MetaArgs) => {
  const painting = findPaintingForPath(location.pathname);
  const found = painting && params.imageId ? findPaintingImage(painting.id, params.imageId) : undefined;
  if (!found) return [{ title: "Image not found" }, { name: "robots", content: "noindex" }];
  return createPageMeta({
    title: `${found.image.alt} – ${found.painting.title}`,
    description: `${found.image.alt}, from the original painting ${found.painting.title} (${found.painting.medium}, ${found.painting.sizeCm} cm).`,
    path: `/${found.painting.id}/image/${found.image.id}`,
    imagePath: found.image.full,
    imageAlt: found.image.alt,
  });
};

/** The viewer shows the largest variant at its natural size, so it takes the last `srcset` candidate without its width. */
function largestCandidateUrl(sourceSet: string): string {
  return sourceSet.split(",").at(-1)?.trim().split(/\s+/)[0] ?? "";
}

export default function ImageViewerPage() {
  const location = useLocation();
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

  const viewerImages = painting.images.map((image) => ({
    id: image.id,
    src: image.full,
    alt: image.alt,
    width: image.width,
    height: image.height,
    sources: [
      { type: "image/avif", srcSet: largestCandidateUrl(image.sources.avifSrcSet) },
      { type: "image/webp", srcSet: largestCandidateUrl(image.sources.webpSrcSet) },
    ],
  }));

  return (
    <ImageViewer
      title={painting.title}
      description={found.image.alt}
      images={viewerImages}
      currentIndex={found.imageIndex}
      onClose={close}
      onNavigateToIndex={showImageAtIndex}
    />
  );
}
