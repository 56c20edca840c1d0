import { describe, expect, it } from "vitest";
import { readWhileChecked } from "./read-while-checked.ts";

describe("given a read started while its check runs", () => {
  it("should answer both when both succeed, the read having started before the check ended", async () => {
    const events: string[] = [];
    let endCheck = (_value: string) => {};
    const check = new Promise<string>((resolve) => (endCheck = resolve));
    const both = readWhileChecked(check, async () => {
      events.push("read started");
      return 42;
    });
    events.push("check ended");
    endCheck("group");
    expect(await both).toEqual(["group", 42]);
    expect(events).toEqual(["read started", "check ended"]);
  });

  it("should answer the check's error even when the read failed first, and leave no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const check = new Promise<string>((_resolve, reject) => setTimeout(() => reject(new Error("Group not found.")), 5));
      await expect(readWhileChecked(check, () => Promise.reject(new Error("The database refused the read.")))).rejects.toThrow("Group not found.");
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("should answer the read's error when the check succeeds", async () => {
    await expect(readWhileChecked(Promise.resolve("group"), () => Promise.reject(new Error("The database refused the read.")))).rejects.toThrow("The database refused the read.");
  });
});
