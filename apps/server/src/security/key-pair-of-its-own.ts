import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";

export type KeyPairKind = { type: "rsa"; modulusLength: number } | { type: "ec"; namedCurve: "P-256" };

/**
 * A new key pair whose KeyObjects are read back from the keys' DER encoding, so that they share nothing with the Node.js
 * job that generated them.
 *
 * Why: in Node.js 20 a KeyObject from `generateKeyPairSync` shares a mutex with the job that made it, the job's
 * destructor takes that mutex, and `export({ format: "jwk" })` holds it while it allocates the JWK's properties. A garbage
 * collection that finalizes the job during the export deadlocks the process: a server start hung in the local OpenID
 * provider's key export, and about one export in a thousand hangs in a loop. Encoded by the job itself (while it is
 * alive) and read back, the keys have mutexes of their own.
 *
 * @example
 * const { privateKey } = generateKeyPairOfItsOwn({ type: "rsa", modulusLength: 2048 });
 * const jwk = privateKey.export({ format: "jwk" });
 */
export function generateKeyPairOfItsOwn(kind: KeyPairKind): { privateKey: KeyObject; publicKey: KeyObject } {
  const publicKeyEncoding = { type: "spki", format: "der" } as const;
  const privateKeyEncoding = { type: "pkcs8", format: "der" } as const;
  const encoded: { publicKey: Buffer; privateKey: Buffer } =
    kind.type === "rsa"
      ? generateKeyPairSync("rsa", { modulusLength: kind.modulusLength, publicKeyEncoding, privateKeyEncoding })
      : generateKeyPairSync("ec", { namedCurve: kind.namedCurve, publicKeyEncoding, privateKeyEncoding });
  return {
    privateKey: createPrivateKey({ key: encoded.privateKey, format: "der", type: "pkcs8" }),
    publicKey: createPublicKey({ key: encoded.publicKey, format: "der", type: "spki" }),
  };
}
