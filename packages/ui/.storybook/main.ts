import type { StorybookConfig } from "@storybook/react-vite";

const config: StorybookConfig = {
  stories: ["../src/**/*.stories.tsx"],
  framework: { name: "@storybook/react-vite", options: {} },
  core: { disableTelemetry: true },
  viteFinal(viteConfig) {
    return {
      ...viteConfig,
      build: {
        ...viteConfig.build,
        // Storybook is a static docs bundle: Radix's "use client" directives and a large preview chunk are expected there.
        chunkSizeWarningLimit: 2048,
        rolldownOptions: {
          ...viteConfig.build?.rolldownOptions,
          checks: { ...viteConfig.build?.rolldownOptions?.checks, moduleLevelDirective: false },
        },
      },
    };
  },
};

export default config;
