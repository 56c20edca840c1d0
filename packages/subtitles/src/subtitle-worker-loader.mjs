// Starts the TypeScript worker (subtitle-worker.ts) when the package runs from source: through the parent's loader
// (tsx, vitest) when it has one, else through tsx's own API. The compiled server starts dist/subtitle-worker.js instead.
try {
  await import("./subtitle-worker.ts");
} catch {
  const { tsImport } = await import("tsx/esm/api");
  await tsImport("./subtitle-worker.ts", import.meta.url);
}
