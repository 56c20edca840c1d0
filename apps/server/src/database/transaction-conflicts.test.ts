import { describe, expect, it } from "vitest";
import { isTransactionConflict, retryTransactionConflicts, transactionConflictAttempts } from "./transaction-conflicts.ts";

const deadlock = () => Object.assign(new Error("deadlock detected"), { code: "40P01" });

describe("given errors of a transaction", () => {
  it("should know PostgreSQL's deadlock and serialization failure, also as a cause, and nothing else", () => {
    expect(isTransactionConflict(deadlock())).toBe(true);
    expect(isTransactionConflict(Object.assign(new Error("could not serialize access"), { code: "40001" }))).toBe(true);
    expect(isTransactionConflict(new Error("The batch failed.", { cause: deadlock() }))).toBe(true);
    expect(isTransactionConflict(Object.assign(new Error("insert or update violates foreign key"), { code: "23503" }))).toBe(false);
    expect(isTransactionConflict(new Error("deadlock detected"))).toBe(false);
    expect(isTransactionConflict(undefined)).toBe(false);
  });
});

describe("given a transaction run until it does not lose a conflict", () => {
  it("should run it again after each deadlock and answer what the run that went through answered", async () => {
    let runs = 0;
    const answer = await retryTransactionConflicts(async () => {
      runs += 1;
      if (runs < transactionConflictAttempts) throw deadlock();
      return "written";
    });
    expect({ answer, runs }).toEqual({ answer: "written", runs: transactionConflictAttempts });
  });

  it("should give up with the last deadlock after its attempts, and never run again after another error", async () => {
    let runs = 0;
    await expect(
      retryTransactionConflicts(async () => {
        runs += 1;
        throw deadlock();
      }),
    ).rejects.toMatchObject({ code: "40P01" });
    expect(runs).toBe(transactionConflictAttempts);
    runs = 0;
    await expect(
      retryTransactionConflicts(async () => {
        runs += 1;
        throw new RangeError("A bug.");
      }),
    ).rejects.toThrow(RangeError);
    expect(runs).toBe(1);
  });
});
