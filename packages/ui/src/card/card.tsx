import type { ComponentPropsWithRef, ReactNode } from "react";
import { joinClassNames } from "../class-names";

export type CardProps = ComponentPropsWithRef<"article">;

/**
 * A self-contained item, such as one painting in the gallery grid. Compose it from
 * CardMedia, CardBody, CardTitle and CardFooter. A link inside CardTitle makes the whole card clickable.
 *
 * @example
 * <Card><CardMedia><img src="/lake.jpg" alt="" /></CardMedia><CardBody><CardTitle><a href="/paintings/lake">Lake</a></CardTitle></CardBody></Card>
 */
export function Card({ className, ...articleProps }: CardProps) {
  return <article className={joinClassNames("atelier-card", className)} {...articleProps} />;
}

export interface CardMediaProps extends ComponentPropsWithRef<"div"> {
  /** Shown on top of the media in the top corner, e.g. `<Badge tone="danger">Sold</Badge>`. */
  overlay?: ReactNode;
}

/**
 * The picture area of a Card; an `overlay` sits in its top corner.
 *
 * @example
 * <CardMedia overlay={<Badge tone="danger">Sold</Badge>}><img src="/lake.jpg" alt="Lake at dusk" /></CardMedia>
 */
export function CardMedia({ overlay, className, children, ...divProps }: CardMediaProps) {
  return (
    <div className={joinClassNames("atelier-card__media", className)} {...divProps}>
      {children}
      {overlay === undefined ? null : <div className="atelier-card__overlay">{overlay}</div>}
    </div>
  );
}

/**
 * The padded text area of a Card.
 *
 * @example
 * <CardBody><CardTitle>Lake</CardTitle><p>Oil on canvas, 2024</p></CardBody>
 */
export function CardBody({ className, ...divProps }: ComponentPropsWithRef<"div">) {
  return <div className={joinClassNames("atelier-card__body", className)} {...divProps} />;
}

export type CardTitleHeadingLevel = 2 | 3 | 4 | 5 | 6;

export interface CardTitleProps extends ComponentPropsWithRef<"h3"> {
  /** Pick the level that fits the page outline; defaults to 3 (cards usually sit under a page's h2). */
  headingLevel?: CardTitleHeadingLevel;
}

/**
 * The Card's heading.
 *
 * @example
 * <CardTitle headingLevel={2}>Evening on the lake</CardTitle>
 */
export function CardTitle({ headingLevel = 3, className, ...headingProps }: CardTitleProps) {
  const Heading = `h${headingLevel}` as const;
  return <Heading className={joinClassNames("atelier-card__title", className)} {...headingProps} />;
}

/**
 * The Card's bottom row, for price and actions; it stays clickable above a whole-card title link.
 *
 * @example
 * <CardFooter><span>CHF 1,200</span><ButtonLink href="…">I want this!</ButtonLink></CardFooter>
 */
export function CardFooter({ className, ...divProps }: ComponentPropsWithRef<"div">) {
  return <div className={joinClassNames("atelier-card__footer", className)} {...divProps} />;
}
