import { Link } from "react-router";
import { Badge, ButtonLink } from "@atelier/ui";
import { artistProfile, findPaintingById, isPaintingSold, landingPaintings, type Painting } from "@atelier/catalogue";
import { PaintingPicture } from "../components/PaintingPicture.tsx";
import { createPageMeta } from "../lib/site-meta.ts";
import { staticShellHandle } from "../site-shell/use-site-shell.ts";

/** Prerendered without React: see site-shell/use-site-shell.ts. */
export const handle = staticShellHandle;

export const meta = () =>
  createPageMeta({
    title: artistProfile.studioName,
    description: `Original acrylic paintings on canvas by ${artistProfile.name}, painted in Clarens, Switzerland. Signed, with a certificate of authenticity, shipped worldwide.`,
    path: "/",
  });

const featuredPaintings = landingPaintings.flatMap((landingPainting) => {
  const painting = findPaintingById(landingPainting.paintingId);
  return painting ? [{ ...landingPainting, painting }] : [];
});

function FeaturedPainting({ painting, sizeLabel, blurb, position }: { painting: Painting; sizeLabel?: string; blurb?: string; position: number }) {
  const sold = isPaintingSold(painting);
  const firstImage = painting.images[0];
  return (
    <article className="featured-painting">
      <Link to={`/${painting.id}`} className="featured-painting__image-link">
        {firstImage ? <PaintingPicture image={firstImage} sizes="(min-width: 80rem) 37.5rem, (min-width: 64rem) 47vw, calc(100vw - 2.5rem)" priority={position === 0 ? "high" : "lazy"} /> : null}
        {sold ? (
          <Badge tone="danger" className="featured-painting__sold">
            SOLD!
          </Badge>
        ) : null}
      </Link>
      <div className="featured-painting__text">
        <h2 className="featured-painting__title">
          <Link to={`/${painting.id}`}>{painting.title}</Link>
        </h2>
        {sizeLabel ? <p className="featured-painting__size">{sizeLabel}</p> : null}
        {blurb ? <p className="featured-painting__blurb">{blurb}</p> : null}
        {sold ? null : (
          <ButtonLink href={painting.stripeUrl} target="_blank">
            I want this!
          </ButtonLink>
        )}
      </div>
    </article>
  );
}

export default function HomePage() {
  return (
    <div className="page">
      <section className="home-intro">
        <h1>{artistProfile.name}</h1>
        <p className="home-intro__lead">Original acrylic paintings on canvas, painted in Clarens on the shore of Lake Geneva.</p>
      </section>
      <section aria-label="Featured paintings" className="featured-paintings">
        {featuredPaintings.map((featured, position) => (
          <FeaturedPainting key={featured.paintingId} painting={featured.painting} sizeLabel={featured.sizeLabel} blurb={featured.blurb} position={position} />
        ))}
      </section>
      <p className="home-more">
        <Link to="/paintings">See all paintings</Link>
      </p>
    </div>
  );
}
