import atelier from "@atelier/eslint-config";

// Decision 0035: only route modules (and the root) import a client's instance, for their loaders and actions and to
// give a provider; components get clients from the feature's context hook or `useAuthClient()`.
const CLIENT_INSTANCE_NAMES = [
  "authClient",
  "studyClient",
  "billingClient",
  "contactClient",
  "siteConfigClient",
  "securityEventsClient",
  "accountDeletionClient",
  "progressMergeClient",
];

export default [
  ...atelier,
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    ignores: ["app/routes/**", "app/root.tsx", "app/lib/**", "app/**/*.test.ts", "app/**/*.test.tsx", "app/**/*test-support.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^\\.",
              importNames: CLIENT_INSTANCE_NAMES,
              message: "Components get a client from its context hook (useStudyClient(), useAuthClient(), …); only route modules import the instance (decision 0035).",
            },
          ],
        },
      ],
    },
  },
];
