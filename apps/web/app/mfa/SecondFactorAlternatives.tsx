import { Link, useSearchParams } from "react-router";
import type { AuthenticatorType } from "@atelier/auth";
import { useAlternativeMethods, type SecondFactorStep } from "./second-factor-flows.ts";

/** Links to the other methods of the step, keeping `next`. */
export function SecondFactorAlternatives({ step, current }: { step: SecondFactorStep; current: AuthenticatorType }) {
  const alternatives = useAlternativeMethods(step, current);
  const [searchParams] = useSearchParams();
  const next = searchParams.get("next");
  if (alternatives.length === 0) return null;
  return (
    <ul className="account-links" aria-label="Other methods">
      {alternatives.map((alternative) => (
        <li key={alternative.path}>
          <Link to={next ? `${alternative.path}?next=${encodeURIComponent(next)}` : alternative.path}>{alternative.label}</Link>
        </li>
      ))}
    </ul>
  );
}
