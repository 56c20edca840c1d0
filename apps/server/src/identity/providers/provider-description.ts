import type { SocialProviderConfiguration } from "../../config.ts";

/** allauth's Provider object (`GET /config`, flows, connected accounts); this server offers the redirect flow only. */
export type ProviderDescription = { id: string; name: string; flows: ["provider_redirect"]; client_id: string; openid_configuration_url?: string };

/**
 * How a configured provider is shown to clients.
 *
 * @example
 * describeSocialProvider({ kind: "github", id: "github", name: "GitHub", clientId: "Iv1…", clientSecret: "…" });
 * // { id: "github", name: "GitHub", flows: ["provider_redirect"], client_id: "Iv1…" }
 */
export function describeSocialProvider(configuration: SocialProviderConfiguration): ProviderDescription {
  const description: ProviderDescription = { id: configuration.id, name: configuration.name, flows: ["provider_redirect"], client_id: configuration.clientId };
  if (configuration.kind === "openid_connect") {
    description.openid_configuration_url = `${configuration.issuer}/.well-known/openid-configuration`;
  }
  return description;
}

/** allauth sorts the configured providers by name. */
export function describeSocialProviders(configurations: readonly SocialProviderConfiguration[]): ProviderDescription[] {
  return configurations.map(describeSocialProvider).sort((left, right) => left.name.localeCompare(right.name));
}
