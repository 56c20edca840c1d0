import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseEngine } from "../database/open-database.ts";
import { testDatabaseEngines } from "../database/test-databases.ts";
import { createEndpointProperty, listFuzzTargets, readFuzzSeed, sweepHostileValues, type FuzzTarget } from "./fuzz-properties.ts";
import { routeExpectations } from "./route-expectations.ts";
import { buildSecurityWorld, useSecurityWorld, type SecurityWorld } from "./security-world.ts";

/** Few runs per endpoint in CI, with a fixed seed; `pnpm bench` runs many more (bench/fuzz-bench.ts). */
const runsPerEndpoint = Number(process.env.FUZZ_RUNS ?? 10);
const seed = readFuzzSeed();
/** SQLite in CI; `FUZZ_ENGINES=sqlite,postgresql` adds PostgreSQL. */
const engines = (process.env.FUZZ_ENGINES ?? "sqlite").split(",").filter((engine): engine is DatabaseEngine => engine === "sqlite" || engine === "postgresql");

describe.each(engines)("given the whole server on %s and generated bodies, headers, query strings and paths", (engine) => {
  let world: SecurityWorld;
  let targets: Map<string, FuzzTarget>;
  beforeAll(async () => {
    world = await buildSecurityWorld(engine);
    targets = new Map(listFuzzTargets(world).map((target) => [target.route.key, target]));
  }, 60_000);
  afterAll(async () => {
    await world?.destroy();
  });

  it.each(Object.keys(routeExpectations).map((key, index) => [key, index] as const))(
    "should answer %s without a 5xx, with readable answers, and store nothing when it refuses",
    async (key, index) => {
      const target = targets.get(key);
      if (!target) throw new Error(`${key} is in route-expectations.ts but not in the route table.`);
      await fc.assert(createEndpointProperty(world, target), { seed: seed + index, numRuns: runsPerEndpoint, endOnFailure: process.env.CI !== undefined });
    },
    60_000,
  );
});

describe.each(testDatabaseEngines)("given the whole server on %s and one hostile value at a time in each path parameter, body field and the query", (engine) => {
  const worldOf = useSecurityWorld(engine);

  it("should answer every endpoint without a 5xx, with readable answers, and store nothing when it refuses", async () => {
    const failures: string[] = [];
    for (const target of listFuzzTargets(worldOf())) {
      await sweepHostileValues(worldOf(), target).catch((error: unknown) => failures.push(`${target.route.key}: ${error instanceof Error ? error.message : String(error)}`));
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
