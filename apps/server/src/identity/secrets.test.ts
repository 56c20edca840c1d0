import { describe, expect, it } from "vitest";
import { createRandomToken, hashToken } from "./secrets.ts";

describe("hashToken", () => {
  it("should answer the token's SHA-256 in lower-case hex, as the stored sessions were hashed", () => {
    // FIPS 180-2's test vector; a token of createRandomToken's length; UTF-8 for what is not ASCII (values from sha256sum).
    expect(hashToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hashToken("Jc9mXw0mHq4bW3yXf6Kp1vZr8sT2uN5aB7dE0gI3kL4")).toBe("0d5418ee6fa46be6cffd4d71d8ff3196fddf62703e27d5037d3d4973eb645a36");
    expect(hashToken("åäö")).toBe("5d0d31f63d1712b2ea533b0c4946c2f1014faf152f0c0e5ee5b81c85e8799953");
  });

  it("should hash two random tokens apart", () => {
    const first = createRandomToken();
    const second = createRandomToken();
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(hashToken(first)).not.toBe(hashToken(second));
  });
});
