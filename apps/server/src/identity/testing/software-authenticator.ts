import { createHash, randomBytes, sign, type KeyObject } from "node:crypto";
import { generateKeyPairOfItsOwn } from "../../security/key-pair-of-its-own.ts";

/** The subset of CBOR that WebAuthn attestation needs: unsigned/negative integers, byte and text strings, maps. */
type CborValue = number | string | Uint8Array | Map<CborValue, CborValue> | { [key: string]: CborValue };

function cborHead(majorType: number, length: number): Buffer {
  if (length < 24) {
    return Buffer.from([(majorType << 5) | length]);
  }
  if (length < 256) {
    return Buffer.from([(majorType << 5) | 24, length]);
  }
  if (length < 65_536) {
    const head = Buffer.alloc(3);
    head[0] = (majorType << 5) | 25;
    head.writeUInt16BE(length, 1);
    return head;
  }
  const head = Buffer.alloc(5);
  head[0] = (majorType << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

/** A minimal CBOR encoder (RFC 8949 major types 0, 1, 2, 3 and 5). */
export function encodeCbor(value: CborValue): Buffer {
  if (typeof value === "number") {
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) {
    return Buffer.concat([cborHead(2, value.length), Buffer.from(value)]);
  }
  const entries: [CborValue, CborValue][] = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([cborHead(5, entries.length), ...entries.flatMap(([key, item]) => [encodeCbor(key), encodeCbor(item)])]);
}

const flagUserPresent = 0x01;
const flagUserVerified = 0x04;
const flagAttestedCredentialData = 0x40;

type SoftwareCredential = { id: Buffer; privateKey: KeyObject; publicKey: KeyObject; rpId: string; userHandle: string; signCount: number };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the options come straight from JSON answers
type JsonOptions = any;

function sha256(data: Buffer | string): Buffer {
  return createHash("sha256").update(data).digest();
}

function authenticatorData(rpId: string, flags: number, signCount: number, attested?: Buffer): Buffer {
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(signCount >>> 0, 0);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
}

/** The public key as a COSE_Key (EC2, P-256, ES256). */
function coseKeyOf(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" });
  return encodeCbor(
    new Map<CborValue, CborValue>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? "", "base64url")],
      [-3, Buffer.from(jwk.y ?? "", "base64url")],
    ]),
  );
}

/**
 * A software WebAuthn authenticator for tests: ES256 keys from node:crypto, "none" attestation, assertions signed
 * over authenticatorData ‖ SHA-256(clientDataJSON). Each option can be bent for negative tests (another challenge,
 * origin, counter, no user verification).
 *
 * @example
 * const device = createSoftwareAuthenticator();
 * const credential = device.register(creationOptions.publicKey, { origin: "http://localhost:3000" });
 * const assertion = device.assert(requestOptions.publicKey, { origin: "http://localhost:3000" });
 */
export function createSoftwareAuthenticator() {
  const credentials: SoftwareCredential[] = [];

  return {
    credentials,

    /** Answers `navigator.credentials.create()` as `RegistrationResponseJSON`. */
    register(publicKey: JsonOptions, options: { origin: string; challenge?: string; userVerified?: boolean; rpId?: string }) {
      const { privateKey, publicKey: key } = generateKeyPairOfItsOwn({ type: "ec", namedCurve: "P-256" });
      const id = randomBytes(16);
      const rpId = options.rpId ?? publicKey.rp?.id ?? "localhost";
      const credential: SoftwareCredential = { id, privateKey, publicKey: key, rpId, userHandle: publicKey.user?.id ?? "", signCount: 0 };
      credentials.push(credential);
      const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.create", challenge: options.challenge ?? publicKey.challenge, origin: options.origin, crossOrigin: false }));
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length, 0);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKeyOf(key)]);
      const flags = flagUserPresent | (options.userVerified === false ? 0 : flagUserVerified) | flagAttestedCredentialData;
      const attestationObject = encodeCbor({ fmt: "none", attStmt: {}, authData: authenticatorData(rpId, flags, 0, attested) });
      return {
        id: id.toString("base64url"),
        rawId: id.toString("base64url"),
        type: "public-key",
        response: { clientDataJSON: clientDataJSON.toString("base64url"), attestationObject: attestationObject.toString("base64url"), transports: ["internal"] },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },

    /** Answers `navigator.credentials.get()` as `AuthenticationResponseJSON` (with the last or the named credential). */
    assert(publicKey: JsonOptions, options: { origin: string; credentialId?: string; challenge?: string; userVerified?: boolean; signCount?: number }) {
      const credential = options.credentialId ? credentials.find((candidate) => candidate.id.toString("base64url") === options.credentialId) : credentials.at(-1);
      if (!credential) {
        throw new Error("The software authenticator holds no such credential.");
      }
      credential.signCount = options.signCount ?? credential.signCount + 1;
      const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: options.challenge ?? publicKey.challenge, origin: options.origin, crossOrigin: false }));
      const data = authenticatorData(credential.rpId, flagUserPresent | (options.userVerified === false ? 0 : flagUserVerified), credential.signCount);
      const signature = sign("sha256", Buffer.concat([data, sha256(clientDataJSON)]), credential.privateKey);
      return {
        id: credential.id.toString("base64url"),
        rawId: credential.id.toString("base64url"),
        type: "public-key",
        response: {
          clientDataJSON: clientDataJSON.toString("base64url"),
          authenticatorData: data.toString("base64url"),
          signature: signature.toString("base64url"),
          userHandle: credential.userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
  };
}

export type SoftwareAuthenticator = ReturnType<typeof createSoftwareAuthenticator>;
