import { createVitestConfig } from "@atelier/vitest-config";

// The worker tests start real worker threads; a wider timeout keeps them stable on a busy 2-core machine.
export default createVitestConfig({ environment: "node", testTimeout: 30_000 });
