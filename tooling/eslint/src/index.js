// Plain JavaScript: ESLint loads its configuration before any TypeScript loader exists.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** The shared lint rules; a package's `eslint.config.js` re-exports them. */
export default tseslint.config(
  { ignores: ["dist/**", "build/**", "storybook-static/**", ".react-router/**", "node_modules/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
    },
  },
);
