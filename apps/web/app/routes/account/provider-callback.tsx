import { accountPageMeta } from "../../account/account-meta.ts";
import { ProviderCallbackPage } from "../../providers/ProviderCallbackPage.tsx";

export const meta = accountPageMeta("Third-party sign-in");

/** Public: a signed-in user, a visitor with a pending flow, or a failure all land here (spec §2.2). */
export default function ProviderCallbackRoute() {
  return <ProviderCallbackPage />;
}
