import { createStore, type StoreApi } from "zustand/vanilla";
import { describeAuthChange, type AuthChangeEvent } from "../auth-change-events.ts";
import type { AllauthClient } from "../client.ts";
import type { AllauthConfiguration, AuthenticationResponse } from "../schemas.ts";

/** `"loading"` until both the configuration (200) and the authentication status are in; `"error"` if one failed. */
export type AuthLoadState = "loading" | "ready" | "error";

export interface AuthStoreState {
  configuration: AllauthConfiguration | undefined;
  /** The latest authentication answer of any call (200 signed in, 401, 410). */
  authenticationResponse: AuthenticationResponse | undefined;
  loadState: AuthLoadState;
  /** Why loading failed, when `loadState` is `"error"` (or a background refresh failed). */
  loadError: unknown;
  /** The last authentication change, or null before the first one. */
  lastEvent: AuthChangeEvent | null;
  /** Every event of the last change, in order: `["logout", "login"]` when the user changed. */
  lastEvents: AuthChangeEvent[];
  /** Counts changes, so a listener can tell two equal events apart. */
  authChangeCount: number;
  /** Loads the configuration and the authentication status; concurrent calls share one load. */
  load(): Promise<void>;
  /** Feeds an authentication answer; the store does this itself for every answer of its client. */
  receiveAuthenticationResponse(response: AuthenticationResponse): void;
  /** Stops listening to the client. */
  detachFromClient(): void;
}

export type AuthStore = StoreApi<AuthStoreState>;

export interface CreateAuthStoreOptions {
  /** The configuration embedded in the served page, so nothing waits for it. */
  initialConfiguration?: AllauthConfiguration;
  /** The authentication status embedded in the served page. */
  initialAuthenticationResponse?: AuthenticationResponse;
}

/**
 * A zustand (vanilla) store of the authentication state, fed by every authentication answer of `client` and
 * computing the change events with the flow-event engine. Works without React.
 *
 * @example
 * const store = createAuthStore(client);
 * await store.getState().load();
 * store.subscribe((state) => console.info(state.lastEvent));
 */
export function createAuthStore(client: AllauthClient, options: CreateAuthStoreOptions = {}): AuthStore {
  let loadInFlight: Promise<void> | undefined;
  const hasInitialData =
    options.initialConfiguration !== undefined && options.initialAuthenticationResponse !== undefined;

  const store = createStore<AuthStoreState>()((set, get) => ({
    configuration: options.initialConfiguration,
    authenticationResponse: options.initialAuthenticationResponse,
    loadState: hasInitialData ? "ready" : "loading",
    loadError: undefined,
    lastEvent: null,
    lastEvents: [],
    authChangeCount: 0,

    load() {
      loadInFlight ??= loadConfigurationAndStatus().finally(() => {
        loadInFlight = undefined;
      });
      return loadInFlight;
    },

    receiveAuthenticationResponse(response) {
      const events = describeAuthChange(get().authenticationResponse, response);
      if (events.length === 0) {
        set({ authenticationResponse: response });
        return;
      }
      set((state) => ({
        authenticationResponse: response,
        lastEvent: events.at(-1) ?? null,
        lastEvents: events,
        authChangeCount: state.authChangeCount + 1,
      }));
    },

    detachFromClient() {
      unsubscribeFromClient();
    },
  }));

  // Every answer of the client passes here, including the status that `load` asks for.
  const unsubscribeFromClient = client.subscribeToAuthChanges((response) => {
    store.getState().receiveAuthenticationResponse(response);
  });

  async function loadConfigurationAndStatus(): Promise<void> {
    const [configurationOutcome, statusOutcome] = await Promise.allSettled([
      client.getConfiguration(),
      client.getAuthenticationStatus(),
    ]);
    let loadError: unknown;
    if (configurationOutcome.status === "fulfilled" && configurationOutcome.value.status === 200) {
      store.setState({ configuration: configurationOutcome.value.data });
    } else {
      loadError = configurationOutcome.status === "rejected"
        ? configurationOutcome.reason
        : new Error(`The allauth configuration answered status ${configurationOutcome.value.status}; it must answer 200.`);
    }
    if (statusOutcome.status === "rejected") {
      loadError = statusOutcome.reason;
    } else if (![200, 401, 410].includes(statusOutcome.value.status)) {
      loadError = new Error(`The authentication status answered status ${statusOutcome.value.status}.`);
    }
    const state = store.getState();
    const hasEverything = state.configuration !== undefined && state.authenticationResponse !== undefined;
    if (loadError === undefined) {
      store.setState({ loadState: hasEverything ? "ready" : "error", loadError: undefined });
    } else {
      // A failed background refresh keeps the embedded data on screen.
      store.setState({ loadState: hasEverything && state.loadState === "ready" ? "ready" : "error", loadError });
    }
  }

  return store;
}
