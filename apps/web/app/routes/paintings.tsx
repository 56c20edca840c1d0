import { Link } from "react-router";
import { Badge, Card, CardBody, CardMedia, CardTitle } from "@atelier/ui";
import { catalogueFooterNotes, createItemListStructuredData, isPaintingSold, paintings } from "@atelier/catalogue";
import { PaintingPicture } from "../components/PaintingPicture.tsx";
import { PaintingPrice } from "../components/PaintingPrice.tsx";
import { createPageMeta, SITE_ORIGIN } from "../lib/site-meta.ts";
import { staticShellHandle } from "../site-shell/use-site-shell.ts";

/** Prerendered without React: see site-shell/use-site-shell.ts. */
export const handle = staticShellHandle;

export const meta = () =>
  createPageMeta({
    title: "Paintings",
    description: "All original paintings: acrylic on canvas and mixed media, with sizes and prices in Swiss francs.",
    path: "/paintings",
    structuredData: createItemListStructuredData(paintings, SITE_ORIGIN),
  });

export default function PaintingsPage() {
  return (
    <div className="page">
      <h1>Paintings</h1>
      <ul className="painting-grid">
        {paintings.map((painting, position) => {
          const firstImage = painting.images[0];
          return (
            <li key={painting.id}>
              <Card className="painting-card">
                <Link to={`/${painting.id}`} className="painting-card__link">
                  <CardMedia overlay={isPaintingSold(painting) ? <Badge tone="danger">SOLD</Badge> : undefined}>
                    {firstImage ? (
                      <PaintingPicture
                        image={firstImage}
                        sizes="(min-width: 80rem) 18.25rem, (min-width: 64rem) 31vw, (min-width: 40rem) 47vw, calc(100vw - 2.625rem)"
                        priority={position === 0 ? "high" : "lazy"}
                      />
                    ) : null}
                  </CardMedia>
                  <CardBody>
                    <CardTitle headingLevel={2}>{painting.title}</CardTitle>
                    <p className="painting-card__facts">
                      {painting.medium}, {painting.sizeCm} cm
                    </p>
                    <p className="painting-card__price">
                      <PaintingPrice painting={painting} />
                    </p>
                  </CardBody>
                </Link>
              </Card>
            </li>
          );
        })}
      </ul>
      <footer className="catalogue-notes">
        {catalogueFooterNotes.map((note) => (
          <p key={note}>{note}</p>
        ))}
      </footer>
    </div>
  );
}
