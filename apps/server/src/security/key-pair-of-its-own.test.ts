import { spawn } from "node:child_process";
import { createHash, sign, verify } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { generateKeyPairOfItsOwn } from "./key-pair-of-its-own.ts";

const helperUrl = new URL("./key-pair-of-its-own.ts", import.meta.url).href;

/** Runs `script` (an ES module importing the helper) in a new Node.js process; a process still running after `limitMilliseconds` is killed. */
function runInChild(script: string, limitMilliseconds: number): Promise<{ finished: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], { cwd: fileURLToPath(new URL("../..", import.meta.url)), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMilliseconds);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ finished: code === 0, output });
    });
  });
}

describe("given a key pair made by generateKeyPairOfItsOwn", () => {
  it.each([{ type: "rsa", modulusLength: 2048 } as const, { type: "ec", namedCurve: "P-256" } as const])("should sign with its private key, verify with its public key and export both as JWK ($type)", (kind) => {
    const { privateKey, publicKey } = generateKeyPairOfItsOwn(kind);
    const data = Buffer.from("Clarens");
    const algorithm = kind.type === "rsa" ? "sha256" : null;
    const signature = sign(algorithm, createHash("sha256").update(data).digest(), privateKey);
    expect(verify(algorithm, createHash("sha256").update(data).digest(), publicKey, signature)).toBe(true);
    expect(privateKey.export({ format: "jwk" })).toMatchObject({ kty: kind.type === "rsa" ? "RSA" : "EC", d: expect.any(String) });
    expect(publicKey.export({ format: "jwk" })).not.toHaveProperty("d");
  });

  it("should make two different pairs", () => {
    const first = generateKeyPairOfItsOwn({ type: "ec", namedCurve: "P-256" }).publicKey.export({ format: "jwk" });
    const second = generateKeyPairOfItsOwn({ type: "ec", namedCurve: "P-256" }).publicKey.export({ format: "jwk" });
    expect(first.x).not.toBe(second.x);
  });
});

describe("given thousands of key pairs made and exported as JWK one after another", () => {
  // With generateKeyPairSync's own KeyObjects, a process doing this hung in a deadlock after 700–1,500 exports
  // (Node.js 20.20): the garbage collector finalized a key's generating job while the key's export held their mutex.
  it("should finish, none of the exports waiting on its key's generating job", { timeout: 90_000 }, async () => {
    const script = `
      import { generateKeyPairOfItsOwn } from ${JSON.stringify(helperUrl)};
      const kept = [];
      for (let index = 0; index < 6000; index += 1) {
        const { privateKey, publicKey } = generateKeyPairOfItsOwn({ type: "ec", namedCurve: "P-256" });
        kept.push(privateKey.export({ format: "jwk" }).d, publicKey.export({ format: "jwk" }).x);
        if (kept.length > 200) kept.length = 0;
      }
      console.log("made 6000");
    `;
    const { finished, output } = await runInChild(script, 60_000);
    expect(output).toContain("made 6000");
    expect(finished).toBe(true);
  });
});
