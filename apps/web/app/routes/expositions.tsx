import { Card, CardBody, CardMedia, CardTitle } from "@atelier/ui";
import { artistProfile, expositions } from "@atelier/catalogue";
import { createPageMeta } from "../lib/site-meta.ts";
import { staticShellHandle } from "../site-shell/use-site-shell.ts";

/** Prerendered without React: see site-shell/use-site-shell.ts. */
export const handle = staticShellHandle;

export const meta = () =>
  createPageMeta({
    title: "Expositions",
    description: `Exhibitions of ${artistProfile.name} year by year, from 2015 back to 1967: Switzerland, Milan, Stockholm, Nigeria and Donetsk.`,
    path: "/expositions",
  });

export default function ExpositionsPage() {
  return (
    <div className="page">
      <h1>Expositions</h1>
      <ol className="exposition-list">
        {expositions.map((exposition) => (
          <li key={exposition.year}>
            <Card className="exposition-card">
              {exposition.image ? (
                <CardMedia>
                  <img src={exposition.image.src} alt={exposition.image.alt} width={exposition.image.width} height={exposition.image.height} loading="lazy" decoding="async" />
                </CardMedia>
              ) : null}
              <CardBody>
                <CardTitle headingLevel={2}>{exposition.year}</CardTitle>
                {exposition.title ? <p className="exposition-card__title">{exposition.title}</p> : null}
                <ul className="exposition-card__venues">
                  {exposition.venues.map((venue) => (
                    <li key={venue}>{venue}</li>
                  ))}
                </ul>
                {exposition.prize ? <p className="exposition-card__prize">{exposition.prize}</p> : null}
              </CardBody>
            </Card>
          </li>
        ))}
      </ol>
    </div>
  );
}
