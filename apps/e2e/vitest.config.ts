import { createVitestConfig } from "@atelier/vitest-config";

// One browser and one server at a time: the machine has two cores.
export default createVitestConfig({ environment: "node", testTimeout: 60_000, hookTimeout: 90_000, fileParallelism: false });
