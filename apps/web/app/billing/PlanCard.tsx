import { useId } from "react";
import { Badge, Button, Card, CardBody, CardFooter, CardTitle } from "@atelier/ui";
import { formatPriceCHF } from "@atelier/catalogue";
import type { PricingProduct } from "@atelier/site-api";
import { formatDaysLeft, PLAN_CARD_LABELS, type PlanCardState } from "./plan-card-state.ts";

const INTERVAL_WORDS = { month: "month", year: "year" } as const;

export interface PlanCardProps {
  product: PricingProduct;
  state: PlanCardState;
  onChoose: (product: PricingProduct, state: PlanCardState) => void;
}

/** One product at one interval, in one of the four states of spec 4.4; the current plan is highlighted green. */
export function PlanCard({ product, state, onChoose }: PlanCardProps) {
  const titleId = useId();
  return (
    <Card className="plan-card" data-state={state.kind} aria-labelledby={titleId}>
      <CardBody>
        <div className="plan-card__header">
          <CardTitle headingLevel={2} id={titleId}>
            {product.name}
          </CardTitle>
          {state.kind === "current" ? <Badge tone="success">{PLAN_CARD_LABELS.current}</Badge> : null}
        </div>
        <p className="plan-card__price">
          <span className="plan-card__amount">{formatPriceCHF(product.price.amount_in_cents / 100)}</span>
          <span className="plan-card__interval"> / {INTERVAL_WORDS[product.price.interval]}</span>
        </p>
        {product.description ? <p className="plan-card__description">{product.description}</p> : null}
        {product.features.length > 0 ? (
          <ul className="plan-card__features" aria-label={`${product.name} features`}>
            {product.features.map((feature) => (
              <li key={feature}>{feature}</li>
            ))}
          </ul>
        ) : null}
      </CardBody>
      <CardFooter className="plan-card__footer">
        {state.kind === "current" ? (
          state.daysLeft === undefined ? null : <p className="plan-card__days-left">{formatDaysLeft(state.daysLeft)}</p>
        ) : (
          <Button variant={state.kind === "downgrade" ? "secondary" : "primary"} onClick={() => onChoose(product, state)} aria-describedby={titleId}>
            {PLAN_CARD_LABELS[state.kind]}
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
