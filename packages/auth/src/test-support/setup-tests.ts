import { afterEach } from "vitest";

// Vitest runs without globals, so Testing Library cannot register its own cleanup. The import is dynamic so
// that node-environment tests (the engine, the client) never load React or a DOM.
afterEach(async () => {
  if (typeof document === "undefined") return;
  const { cleanup } = await import("@testing-library/react");
  cleanup();
});
