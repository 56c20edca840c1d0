import { accountPageMeta } from "../../account/account-meta.ts";
import { ProviderErrorPage } from "../../providers/ProviderErrorPage.tsx";

export const meta = accountPageMeta("Third-Party Login Failure");

export default function ProviderErrorRoute() {
  return <ProviderErrorPage />;
}
