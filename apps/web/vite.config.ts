import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { paintingImagesPlugin } from "./vite-plugin-painting-images.ts";

/** In `pnpm dev` the Vite server serves the pages and hands every API path to the Atelier server (apps/server). */
const apiServerOrigin = process.env.ATELIER_API_ORIGIN ?? "http://localhost:3000";
const apiPathPrefixes = ["/messages", "/captcha", "/site-config", "/dev", "/api", "/_allauth", "/user", "/stripe"];

export default defineConfig({
  plugins: [reactRouter(), paintingImagesPlugin()],
  server: {
    proxy: Object.fromEntries(apiPathPrefixes.map((prefix) => [prefix, { target: apiServerOrigin, changeOrigin: false }])),
  },
});
