import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toLiteral } from "./postgres-one-round-trip.ts";
import { testDatabaseEngines, testPostgresUrl } from "./test-databases.ts";

/** Text as a learner or an attacker may send it: quotes, backslashes and any Unicode, U+0000 left out (refused earlier). */
const textWithoutNul = fc
  .string({ unit: fc.oneof({ weight: 3, arbitrary: fc.constantFrom("'", "\\", "E", "$", ";", '"', " ") }, { weight: 5, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) }), maxLength: 60 })
  .filter((text) => !text.includes("\u0000"));

describe("toLiteral", () => {
  it("should write text exactly as node-postgres' escapeLiteral does", () => {
    fc.assert(
      fc.property(textWithoutNul, (text) => {
        expect(toLiteral(text)).toBe(pg.escapeLiteral(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it("should quote the characters a literal can end or escape with", () => {
    expect(toLiteral("c36fa734-97b4-4220-84ff-b0f530f2ba72")).toBe("'c36fa734-97b4-4220-84ff-b0f530f2ba72'");
    expect(toLiteral("l'été")).toBe("'l''été'");
    expect(toLiteral("a\\b")).toBe(" E'a\\\\b'");
    expect(toLiteral("'); DROP TABLE study_progress; --")).toBe("'''); DROP TABLE study_progress; --'");
  });

  it("should write numbers, booleans and null, and refuse what PostgreSQL cannot hold", () => {
    expect([toLiteral(-2_147_483_648), toLiteral(0.5), toLiteral(true), toLiteral(false), toLiteral(null)]).toEqual(["-2147483648", "0.5", "TRUE", "FALSE", "NULL"]);
    expect(() => toLiteral(Number.NaN)).toThrow(TypeError);
    expect(() => toLiteral("a\u0000b")).toThrow(TypeError);
  });

  it("should write a typed array of literals, refusing an element PostgreSQL cannot hold", () => {
    expect(toLiteral({ elements: ["l'été", null], elementType: "text" })).toBe("ARRAY['l''été', NULL]::text[]");
    expect(toLiteral({ elements: [1, null, -3], elementType: "integer" })).toBe("ARRAY[1, NULL, -3]::integer[]");
    expect(toLiteral({ elements: [], elementType: "text" })).toBe("ARRAY[]::text[]");
    expect(() => toLiteral({ elements: ["a\u0000b"], elementType: "text" })).toThrow(TypeError);
  });
});

describe.runIf(testDatabaseEngines.includes("postgresql"))("toLiteral on PostgreSQL", () => {
  const client = new pg.Client({ connectionString: testPostgresUrl });
  beforeAll(() => client.connect());
  afterAll(() => client.end());

  it("should give back the same text from any literal it writes", async () => {
    const texts = fc.sample(textWithoutNul, { numRuns: 300, seed: 16 });
    const { rows } = await client.query<Record<string, string>>(`SELECT ${texts.map((text, index) => `${toLiteral(text)}::text AS t${index}`).join(", ")}`);
    expect(texts.map((_, index) => rows[0]?.[`t${index}`])).toEqual(texts);
  });

  it("should give back the same elements from any array it writes", async () => {
    const texts = fc.sample(textWithoutNul, { numRuns: 200, seed: 17 });
    const numbers = [0, -2_147_483_648, 2_147_483_647, null];
    const { rows } = await client.query<{ texts: (string | null)[]; numbers: (number | null)[] }>(
      `SELECT ${toLiteral({ elements: [...texts, null], elementType: "text" })} AS texts, ${toLiteral({ elements: numbers, elementType: "integer" })} AS numbers`,
    );
    expect(rows[0]).toEqual({ texts: [...texts, null], numbers });
  });
});
