import axe from "axe-core";
import { expect } from "vitest";

/**
 * Runs axe-core against a rendered element and fails with a readable list of violations.
 *
 * @example
 * const { container } = render(<Button>Save</Button>);
 * await expectNoAxeViolations(container);
 */
export async function expectNoAxeViolations(container: Element): Promise<void> {
  const results = await axe.run(container, {
    rules: {
      // happy-dom has no layout or computed colours, so axe cannot measure contrast here;
      // contrast is checked against the real site in Chromium instead.
      "color-contrast": { enabled: false },
    },
  });
  const violationSummaries = results.violations.map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(violationSummaries).toEqual([]);
}
