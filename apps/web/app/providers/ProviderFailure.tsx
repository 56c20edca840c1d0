import { Link } from "react-router";
import { AccountPage } from "../account/AccountPage.tsx";
import { PROVIDER_FAILURE_MESSAGE, PROVIDER_FAILURE_TITLE, continuePathAfterProviderFailure, explainProviderError } from "./provider-messages.ts";

/** 'Third-Party Login Failure' / 'Something went wrong.' (spec §8), what the code means when known, and Continue. */
export function ProviderFailure({ errorCode, errorProcess }: { errorCode: string | null; errorProcess: string | null }) {
  const explanation = explainProviderError(errorCode);
  return (
    <AccountPage title={PROVIDER_FAILURE_TITLE}>
      <p>{PROVIDER_FAILURE_MESSAGE}</p>
      {explanation ? <p data-error-code={errorCode ?? undefined}>{explanation}</p> : null}
      <p>
        <Link to={continuePathAfterProviderFailure(errorProcess)}>Continue</Link>
      </p>
    </AccountPage>
  );
}
