import { createAllauthClient } from "@atelier/auth";
import { createAuthStore } from "@atelier/auth/react";

/** One client and one store for the whole page: the identity service is on our own origin, browser mode. */
export const authClient = createAllauthClient({ baseUrl: "/_allauth", clientType: "browser" });
export const authStore = createAuthStore(authClient);
