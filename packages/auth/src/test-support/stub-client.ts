import * as v from "valibot";
import type { AllauthClient, AuthenticationResponseListener } from "../client.ts";
import { isAuthenticationResponse } from "../result.ts";
import { authenticationResponseSchema, configurationResponseSchema, type AuthenticationResponse } from "../schemas.ts";
import { configuration } from "./allauth-answers.ts";

/**
 * A client whose configuration and status answers the test decides; only what the React bindings use is real.
 * `emit` plays an answer of any other call (a login, a logout) as the real client would report it.
 */
export function createStubClient(options: {
  status: () => Promise<unknown>;
  configuration?: () => Promise<unknown>;
}) {
  const listeners = new Set<AuthenticationResponseListener>();
  const emit = (answer: unknown) => {
    const response: AuthenticationResponse = v.parse(authenticationResponseSchema, answer);
    for (const listener of listeners) listener(response);
    return response;
  };
  const client = {
    clientType: "browser",
    apiUrl: "/_allauth/browser/v1",
    getConfiguration: async () =>
      v.parse(configurationResponseSchema, await (options.configuration ?? (async () => configuration))()),
    getAuthenticationStatus: async () => {
      const answer = (await options.status()) as { status: number };
      return isAuthenticationResponse(answer) ? emit(answer) : answer;
    },
    subscribeToAuthChanges: (listener: AuthenticationResponseListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as AllauthClient;
  return { client, emit };
}

/** A promise the test settles when it wants. */
export function createDeferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  return { promise, resolve, reject };
}
