// Plain JavaScript: ESLint loads its configuration before any TypeScript loader exists.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** The shared lint rules; a package's `eslint.config.js` re-exports them. */
export default tseslint.config(
  { ignores: ["dist/**", ".bench-build/**", "build/**", "storybook-static/**", ".react-router/**", "node_modules/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The rules of hooks and complete dependency lists. The React Compiler's further checks (no setState in an
    // effect, no ref read during render) wait for the move of page data to route loaders (issue 15).
    files: ["**/*.tsx", "app/**/*.ts", "src/react/**/*.ts", "src/**/use-*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
    },
  },
);
