import { act, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AllauthNetworkError } from "../errors.ts";
import {
  authenticatedByPassword,
  configuration,
  unauthenticatedInitial,
} from "../test-support/allauth-answers.ts";
import { createDeferred, createStubClient } from "../test-support/stub-client.ts";
import { asAuthenticationResponse } from "../test-support/parse-answer.ts";
import * as v from "valibot";
import { configurationSchema } from "../schemas.ts";
import { AuthGate, AuthProvider, useAuthChangeEvent, useAuthStatus, useLoginByCodeEnabled } from "./auth-provider.tsx";
import { createAuthStore } from "./auth-store.ts";

function Greeting() {
  const { isAuthenticated, user } = useAuthStatus();
  const lastEvent = useAuthChangeEvent();
  const loginByCode = useLoginByCodeEnabled();
  return (
    <p>
      {isAuthenticated ? `Hello ${user?.display}` : "Hello visitor"} / event: {lastEvent ?? "none"} / code:{" "}
      {String(loginByCode)}
    </p>
  );
}

describe("given an AuthProvider with gate='all'", () => {
  it("shows 'Starting...' until configuration and status are loaded, then the content", async () => {
    const status = createDeferred<unknown>();
    const { client } = createStubClient({ status: () => status.promise });
    render(
      <AuthProvider client={client} gate="all">
        <Greeting />
      </AuthProvider>,
    );
    expect(screen.getByText("Starting...")).toBeTruthy();
    expect(screen.queryByText(/Hello/)).toBeNull();

    await act(async () => status.resolve(authenticatedByPassword));

    expect(screen.queryByText("Starting...")).toBeNull();
    expect(screen.getByText("Hello Magic Wizard / event: none / code: true")).toBeTruthy();
  });

  it("shows 'Loading error!' when the status cannot be loaded", async () => {
    const { client } = createStubClient({
      status: () => Promise.reject(new AllauthNetworkError({ method: "GET", url: "/x", cause: new TypeError("fetch failed") })),
    });
    render(
      <AuthProvider client={client}>
        <Greeting />
      </AuthProvider>,
    );
    expect(await screen.findByText("Loading error!")).toBeTruthy();
  });

  it("keeps showing 'Starting...' while only the status has loaded", async () => {
    const configurationAnswer = createDeferred<unknown>();
    const { client } = createStubClient({
      status: async () => unauthenticatedInitial,
      configuration: () => configurationAnswer.promise,
    });
    render(
      <AuthProvider client={client}>
        <Greeting />
      </AuthProvider>,
    );
    await act(async () => {});
    expect(screen.getByText("Starting...")).toBeTruthy();
    await act(async () => configurationAnswer.resolve(configuration));
    expect(screen.getByText(/Hello visitor/)).toBeTruthy();
  });

  it("records a login reported by the client as the last event", async () => {
    const { client, emit } = createStubClient({ status: async () => unauthenticatedInitial });
    render(
      <AuthProvider client={client}>
        <Greeting />
      </AuthProvider>,
    );
    expect(await screen.findByText(/Hello visitor \/ event: none/)).toBeTruthy();
    act(() => {
      emit(authenticatedByPassword);
    });
    expect(screen.getByText(/Hello Magic Wizard \/ event: login/)).toBeTruthy();
  });
});

describe("given an AuthProvider with gate='none'", () => {
  it("renders its children at once, before anything has loaded", () => {
    const { client } = createStubClient({ status: () => new Promise(() => {}) });
    render(
      <AuthProvider client={client} gate="none">
        <h1>The gallery</h1>
        <AuthGate>
          <Greeting />
        </AuthGate>
      </AuthProvider>,
    );
    expect(screen.getByRole("heading", { name: "The gallery" })).toBeTruthy();
    expect(screen.queryByText("Starting...")).toBeTruthy();
  });

  it("is ready at once with the configuration and status embedded in the page", () => {
    const { client } = createStubClient({ status: () => new Promise(() => {}) });
    render(
      <AuthProvider
        client={client}
        gate="all"
        initialConfiguration={v.parse(configurationSchema, configuration.data)}
        initialAuthenticationResponse={asAuthenticationResponse(authenticatedByPassword)}
      >
        <Greeting />
      </AuthProvider>,
    );
    expect(screen.queryByText("Starting...")).toBeNull();
    expect(screen.getByText(/Hello Magic Wizard/)).toBeTruthy();
  });
});

describe("given an AuthGate", () => {
  it("shows 'Loading error!' for its subtree when loading failed", async () => {
    const { client } = createStubClient({ status: async () => ({ status: 403 }) });
    const store = createAuthStore(client);
    render(
      <AuthProvider client={client} store={store} gate="none">
        <h1>Prerendered</h1>
        <AuthGate>
          <Greeting />
        </AuthGate>
      </AuthProvider>,
    );
    expect(await screen.findByText("Loading error!")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Prerendered" })).toBeTruthy();
  });
});

describe("given no AuthProvider", () => {
  it("says how to fix it", () => {
    expect(() => render(<Greeting />)).toThrowError("No auth client set, use AuthProvider to set one");
  });
});
