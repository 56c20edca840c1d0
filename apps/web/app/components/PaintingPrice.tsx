import { formatPriceCHF, isPaintingSold, type Painting } from "@atelier/catalogue";

export function PaintingPrice({ painting }: { painting: Painting }) {
  return <span className="painting-price">{isPaintingSold(painting) ? "Sold" : formatPriceCHF(painting.priceCHF)}</span>;
}
