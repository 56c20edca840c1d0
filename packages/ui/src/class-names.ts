/** Joins class names, skipping empty ones, so components can merge the caller's `className`. */
export function joinClassNames(...classNames: Array<string | false | null | undefined>): string {
  return classNames.filter(Boolean).join(" ");
}
