import type { StorybookConfig } from "@storybook/react-vite";

/**
 * One Storybook for designers (Turborepo's design-system keeps it in apps/docs): the UI kit's components from
 * packages/ui and the site's screens, each story checked by axe (addon-a11y) and run as a test (addon-vitest).
 */
const config: StorybookConfig = {
  stories: ["../src/**/*.mdx", "../src/**/*.stories.tsx"],
  addons: ["@storybook/addon-docs", "@storybook/addon-a11y", "@storybook/addon-vitest"],
  framework: { name: "@storybook/react-vite", options: {} },
  core: { disableTelemetry: true },
  viteFinal(viteConfig) {
    return {
      ...viteConfig,
      build: {
        ...viteConfig.build,
        // Storybook is a static docs bundle: Radix's "use client" directives and a large preview chunk are expected there.
        chunkSizeWarningLimit: 4096,
        rolldownOptions: {
          ...viteConfig.build?.rolldownOptions,
          checks: { ...viteConfig.build?.rolldownOptions?.checks, moduleLevelDirective: false },
        },
      },
    };
  },
};

export default config;
