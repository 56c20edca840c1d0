import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { paintingImagesPlugin } from "./vite-plugin-painting-images.ts";

export default defineConfig({
  plugins: [reactRouter(), paintingImagesPlugin()],
});
