import { Button } from "@atelier/ui";
import { submitProviderRedirect, type AllauthProvider, type ProviderRedirectInput, type ProviderRedirectProcess } from "@atelier/auth";
import { useAuthClient, useConfiguration } from "@atelier/auth/react";
import { providerCallbackUrl } from "./provider-messages.ts";

/** The configured providers that can be reached by a redirect (a provider offering only token login has no button). */
export function useRedirectProviders(): AllauthProvider[] {
  const providers = useConfiguration()?.socialaccount?.providers ?? [];
  return providers.filter((provider) => provider.flows.includes("provider_redirect"));
}

export interface ProviderButtonsProps {
  /** `login` on the login page and in the login modal; `connect` on the accounts page. */
  process: ProviderRedirectProcess;
  /** Tests pass a spy: happy-dom does not navigate. By default a form post that leaves the page for the provider. */
  startRedirect?: (input: ProviderRedirectInput) => void;
}

/**
 * One button per configured provider ('Continue with Google' to sign in, 'Connect Google' to connect); nothing when
 * the server configures none. A login comes back to /account/provider/callback, a connection to /account/providers.
 */
export function ProviderButtons({ process, startRedirect }: ProviderButtonsProps) {
  const client = useAuthClient();
  const providers = useRedirectProviders();
  const start = startRedirect ?? ((input: ProviderRedirectInput) => submitProviderRedirect(client, input, document));
  if (providers.length === 0) return null;
  return (
    <ul className="provider-buttons" aria-label={process === "login" ? "Third-party sign-in" : "Third-party accounts to connect"}>
      {providers.map((provider) => (
        <li key={provider.id}>
          <Button
            type="button"
            variant="secondary"
            data-provider={provider.id}
            onClick={() => start({ provider: provider.id, process, callbackUrl: providerCallbackUrl(process, window.location.origin) })}
          >
            {process === "login" ? `Continue with ${provider.name}` : `Connect ${provider.name}`}
          </Button>
        </li>
      ))}
    </ul>
  );
}
