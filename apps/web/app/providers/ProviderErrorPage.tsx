import { useSearchParams } from "react-router";
import { ProviderFailure } from "./ProviderFailure.tsx";

/**
 * /account/provider/error: where allauth sends the browser when the provider round trip cannot be matched to its
 * start (a lost or forged state, an unknown provider), always with `?error=…&error_process=…`. See decision 0020.
 */
export function ProviderErrorPage() {
  const [searchParams] = useSearchParams();
  return <ProviderFailure errorCode={searchParams.get("error")} errorProcess={searchParams.get("error_process")} />;
}
