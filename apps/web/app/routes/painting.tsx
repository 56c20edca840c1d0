import { useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import { Badge, ButtonLink } from "@atelier/ui";
import { createPaintingStructuredData, formatPriceCHF, isPaintingSold, serviceNotes } from "@atelier/catalogue";
import type { Route } from "./+types/painting";
import { PaintingPicture } from "../components/PaintingPicture.tsx";
import { findPaintingForPath } from "../lib/painting-from-path.ts";
import { createPageMeta, SITE_ORIGIN } from "../lib/site-meta.ts";
import NotFoundPage from "./not-found.tsx";
import { staticShellHandle } from "../site-shell/use-site-shell.ts";

/** Prerendered without React: see site-shell/use-site-shell.ts. */
export const handle = staticShellHandle;

export const meta = ({ location }: Route.MetaArgs) => {
  const painting = findPaintingForPath(location.pathname);
  if (!painting) return [{ title: "Page not found" }];
  const firstImage = painting.images[0];
  return createPageMeta({
    title: painting.title,
    description: `${painting.title}: original ${painting.medium}, ${painting.sizeCm} cm. ${painting.description}`.slice(0, 300),
    path: `/${painting.id}`,
    imagePath: firstImage?.full,
    imageAlt: firstImage?.alt,
    structuredData: createPaintingStructuredData(painting, SITE_ORIGIN),
  });
};

export default function PaintingPage() {
  const location = useLocation();
  const painting = findPaintingForPath(location.pathname);
  const articleRef = useRef<HTMLElement>(null);
  const focusImageId = (location.state as { focusImageId?: unknown } | null)?.focusImageId;
  // Back from the viewer: the link that opened it takes the focus again.
  useEffect(() => {
    if (typeof focusImageId !== "string" || !painting) return;
    articleRef.current?.querySelector<HTMLElement>(`a[href="/${CSS.escape(painting.id)}/image/${CSS.escape(focusImageId)}"]`)?.focus();
  }, [focusImageId, painting]);
  if (!painting) return <NotFoundPage />;
  const sold = isPaintingSold(painting);
  const [mainImage, ...otherImages] = painting.images;

  return (
    <article className="page painting-detail" ref={articleRef}>
      <div className="painting-detail__gallery">
        {mainImage ? (
          <Link to={`/${painting.id}/image/${mainImage.id}`} className="painting-detail__main-image" aria-label={`View ${mainImage.alt} full screen`}>
            <PaintingPicture image={mainImage} sizes="(min-width: 80rem) 45.5rem, (min-width: 64rem) 57vw, calc(100vw - 2.5rem)" priority="high" />
          </Link>
        ) : null}
        {otherImages.length > 0 ? (
          <ul className="painting-detail__thumbnails" aria-label="More images">
            {otherImages.map((image) => (
              <li key={image.id}>
                <Link to={`/${painting.id}/image/${image.id}`} aria-label={`View ${image.alt} full screen`}>
                  <PaintingPicture image={image} sizes="8rem" />
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="painting-detail__text">
        <h1>{painting.title}</h1>
        <p className="painting-detail__facts">
          {painting.medium}, {painting.sizeCm} cm
        </p>
        <p className="painting-detail__description">{painting.description}</p>
        <div className="painting-detail__purchase">
          {sold ? (
            <Badge tone="danger">Sold</Badge>
          ) : (
            <>
              <p className="painting-detail__price">{formatPriceCHF(painting.priceCHF)}</p>
              <ButtonLink href={painting.stripeUrl} target="_blank" size="large">
                Purchase
              </ButtonLink>
            </>
          )}
        </div>
        <h2 className="painting-detail__notes-heading">Good to know</h2>
        <ul className="painting-detail__notes">
          {serviceNotes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
        <p>
          <Link to="/paintings">Back to all paintings</Link>
        </p>
      </div>
    </article>
  );
}
