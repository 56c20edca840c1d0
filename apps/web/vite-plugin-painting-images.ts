import { createReadStream, existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

const PUBLIC_PREFIX = "/images/paintings/";

function findCatalogueImageDirectory(): string {
  const require = createRequire(import.meta.url);
  // The package exports its sources (src/index.ts); its build output sits beside them in dist/.
  const catalogueEntry = require.resolve("@atelier/catalogue", { paths: [import.meta.dirname] });
  return path.join(path.dirname(catalogueEntry), "..", "dist", "images");
}

const contentTypes: Record<string, string> = { ".avif": "image/avif", ".webp": "image/webp", ".jpg": "image/jpeg", ".png": "image/png" };

/**
 * Serves the catalogue's responsive images at /images/paintings/ in development and copies them into the
 * client build, so the painter's photographs go through one pipeline (the catalogue's build) and nothing else.
 */
export function paintingImagesPlugin(): Plugin {
  const imageDirectory = findCatalogueImageDirectory();
  return {
    name: "atelier-painting-images",
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const url = request.url ?? "";
        if (!url.startsWith(PUBLIC_PREFIX)) return next();
        const fileName = path.basename(decodeURIComponent(url.slice(PUBLIC_PREFIX.length).split("?")[0] ?? ""));
        const filePath = path.join(imageDirectory, fileName);
        if (!existsSync(filePath)) return next();
        response.setHeader("Content-Type", contentTypes[path.extname(fileName)] ?? "application/octet-stream");
        createReadStream(filePath).pipe(response);
      });
    },
    generateBundle() {
      if (this.environment.name !== "client") return;
      if (!existsSync(imageDirectory)) {
        this.error(`No painting images at ${imageDirectory}: build @atelier/catalogue first (turbo does this for you: pnpm build).`);
      }
      for (const fileName of readdirSync(imageDirectory)) {
        this.emitFile({ type: "asset", fileName: `images/paintings/${fileName}`, source: readFileSync(path.join(imageDirectory, fileName)) });
      }
    },
  };
}
