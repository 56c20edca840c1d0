import { describe, expect, it } from "vitest";
import { batchPerTurn, FailedCall } from "./turn-batch.ts";

describe("given calls batched per turn of the event loop", () => {
  it("should run the calls of one turn together, answer each with its own result, and start a new batch for later calls", async () => {
    const batches: number[][] = [];
    const double = batchPerTurn(
      async (inputs: readonly number[]) => {
        batches.push([...inputs]);
        return inputs.map((input) => input * 2);
      },
      { maximumBatchSize: 10 },
    );
    const together = await Promise.all([double(1), double(2), double(3)]);
    const later = await double(4);
    expect(together).toEqual([2, 4, 6]);
    expect(later).toBe(8);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it("should split a turn's calls into batches of at most the given size", async () => {
    const sizes: number[] = [];
    const echo = batchPerTurn(
      async (inputs: readonly string[]) => {
        sizes.push(inputs.length);
        return inputs;
      },
      { maximumBatchSize: 4 },
    );
    const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => echo(`call ${index}`)));
    expect(answers).toEqual(Array.from({ length: 10 }, (_, index) => `call ${index}`));
    expect(sizes).toEqual([4, 4, 2]);
  });

  it("should fail a call answered as failed alone, and answer the others of its batch", async () => {
    const halve = batchPerTurn(async (inputs: readonly number[]) => inputs.map((input) => (input % 2 === 0 ? input / 2 : new FailedCall(new Error(`${input} is odd.`)))), { maximumBatchSize: 10 });
    const outcomes = await Promise.allSettled([halve(2), halve(3), halve(4)]);
    expect(outcomes).toEqual([
      { status: "fulfilled", value: 1 },
      { status: "rejected", reason: new Error("3 is odd.") },
      { status: "fulfilled", value: 2 },
    ]);
  });

  it("should fail every call of a batch that fails, and not the calls of the next batch", async () => {
    let failing = true;
    const run = batchPerTurn(
      async (inputs: readonly number[]) => {
        if (failing) throw new Error("The database is away.");
        return inputs;
      },
      { maximumBatchSize: 10 },
    );
    const failed = await Promise.allSettled([run(1), run(2)]);
    failing = false;
    expect(failed.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect(await run(3)).toBe(3);
  });
});
