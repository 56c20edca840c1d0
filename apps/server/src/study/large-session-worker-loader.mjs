// Starts the TypeScript worker (large-session-worker.ts) when the server runs from source: through the parent's loader
// (tsx) when it has one, else through tsx's own API (vitest). The compiled server starts large-session-worker.js instead.
try {
  await import("./large-session-worker.ts");
} catch {
  const { tsImport } = await import("tsx/esm/api");
  await tsImport("./large-session-worker.ts", import.meta.url);
}
