import { createVitestConfig } from "@atelier/vitest-config";

// One server under load at a time: the machine has two cores, shared by the learners and the server.
export default createVitestConfig({ environment: "node", testTimeout: 60_000, hookTimeout: 90_000, fileParallelism: false });
