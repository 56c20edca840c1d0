// Worker entry for parseSubtitleXmlInWorker. Plain JavaScript so that Node can start it without a TypeScript
// loader; it then loads the TypeScript parser through the parent's loader (tsx) or, failing that, tsx's own API.
import { parentPort } from "node:worker_threads";

async function loadParser() {
  try {
    return await import("./parse-subtitle-xml.ts");
  } catch {
    const { tsImport } = await import("tsx/esm/api");
    return tsImport("./parse-subtitle-xml.ts", import.meta.url);
  }
}

const { parseSubtitleXml } = await loadParser();
parentPort.on("message", ({ jobId, input, limits }) => {
  try {
    const track = parseSubtitleXml(input, limits);
    parentPort.postMessage({ jobId, status: "parsed", track });
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
    const message = error instanceof Error ? error.message : String(error);
    parentPort.postMessage({ jobId, status: "failed", code, message });
  }
});
parentPort.postMessage({ status: "ready" });
