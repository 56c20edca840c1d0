export { default } from "@atelier/eslint-config";
