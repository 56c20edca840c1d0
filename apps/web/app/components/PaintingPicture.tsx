import type { PaintingImage } from "@atelier/catalogue";

export interface PaintingPictureProps {
  image: PaintingImage;
  /** The `sizes` attribute: how wide the picture is drawn, so the browser picks the smallest file that is sharp. */
  sizes: string;
  /** The first picture in view loads at once; the others wait until they approach the viewport. */
  priority?: "high" | "lazy";
  className?: string;
}

/** AVIF, then WebP, then JPEG, with the intrinsic size set so the layout never shifts. */
export function PaintingPicture({ image, sizes, priority = "lazy", className }: PaintingPictureProps) {
  return (
    <picture>
      <source type="image/avif" srcSet={image.sources.avifSrcSet} sizes={sizes} />
      <source type="image/webp" srcSet={image.sources.webpSrcSet} sizes={sizes} />
      <img
        className={className}
        src={image.sources.fallbackSrc}
        srcSet={image.sources.jpegSrcSet}
        sizes={sizes}
        alt={image.alt}
        width={image.width}
        height={image.height}
        loading={priority === "high" ? "eager" : "lazy"}
        fetchPriority={priority === "high" ? "high" : "auto"}
        decoding="async"
      />
    </picture>
  );
}
