import { createHash, createHmac } from "node:crypto";
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import * as v from "valibot";
import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import type { Captcha } from "./captcha.ts";

export const altchaChallengeLifetimeMilliseconds = 10 * 60 * 1_000;
export const altchaAlgorithm = "PBKDF2/SHA-256";
export const altchaChallengeUrl = "/captcha/challenge";

const payloadSchema = v.object({
  challenge: v.object({
    parameters: v.looseObject({
      algorithm: v.string(),
      nonce: v.string(),
      salt: v.string(),
      cost: v.number(),
      keyLength: v.number(),
      keyPrefix: v.string(),
      data: v.optional(v.looseObject({ expiresAtMilliseconds: v.optional(v.number()) })),
    }),
    signature: v.string(),
  }),
  solution: v.looseObject({ counter: v.number(), derivedKey: v.string() }),
});

/**
 * The ALTCHA proof-of-work captcha (PoW v2, as solved by the `altcha` widget 3.x), with replay protection:
 * a verified challenge is recorded in `captcha_spent_challenge` until it expires, so it passes only once.
 *
 * @example
 * const captcha = createAltchaCaptcha({ database, secretKey, maximumNumber: 20_000, clock: () => new Date() });
 */
export function createAltchaCaptcha(options: { database: AtelierDatabase; secretKey: string; maximumNumber: number; clock: Clock }): Captcha {
  // Separate keys per purpose, so SECRET_KEY itself never signs anything a client sees.
  const hmacSignatureSecret = createHmac("sha256", options.secretKey).update("altcha-challenge-signature").digest("hex");
  const hmacKeySignatureSecret = createHmac("sha256", options.secretKey).update("altcha-key-signature").digest("hex");

  return {
    provider: "altcha",
    publicSettings: { provider: "altcha", challengeUrl: altchaChallengeUrl },
    async createChallenge(): Promise<Challenge> {
      return createChallenge({
        algorithm: altchaAlgorithm,
        cost: 1,
        // Deterministic mode: the browser must try counters from 0 up to this secret number.
        counter: randomInt(options.maximumNumber),
        deriveKey,
        // Not altcha-lib's own `expiresAt`: its verifySolution compares that with the system clock, and every time
        // decision of the server must read the injected one. The expiry travels signed in `data` instead.
        data: { expiresAtMilliseconds: options.clock().getTime() + altchaChallengeLifetimeMilliseconds },
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
    },
    async verifyCaptchaToken(token) {
      if (token.trim() === "") {
        return { status: "rejected", reason: "missing" };
      }
      const payload = decodeAltchaPayload(token);
      if (!payload) {
        return { status: "rejected", reason: "malformed" };
      }
      let result;
      try {
        result = await verifySolution({
          challenge: payload.challenge as Challenge,
          solution: payload.solution as Solution,
          deriveKey,
          hmacSignatureSecret,
          hmacKeySignatureSecret,
        });
      } catch {
        return { status: "rejected", reason: "invalid" };
      }
      if (!result.verified) {
        return { status: "rejected", reason: result.expired ? "expired" : "invalid" };
      }
      const now = options.clock();
      const expiresAtMilliseconds = payload.challenge.parameters.data?.expiresAtMilliseconds;
      // A challenge without a signed expiry was not made by this server's createChallenge: it would never expire.
      if (expiresAtMilliseconds === undefined) {
        return { status: "rejected", reason: "invalid" };
      }
      if (expiresAtMilliseconds <= now.getTime()) {
        return { status: "rejected", reason: "expired" };
      }
      // Kept a lifetime past its expiry, so a replay is recognised for as long as the challenge could be accepted.
      const expiresAt = new Date(expiresAtMilliseconds + altchaChallengeLifetimeMilliseconds);
      await options.database.deleteFrom("captcha_spent_challenge").where("expires_at", "<", now.toISOString()).execute();
      const inserted = await options.database
        .insertInto("captcha_spent_challenge")
        .values({ challenge_hash: createHash("sha256").update(payload.challenge.signature).digest("hex"), expires_at: expiresAt.toISOString() })
        .onConflict((conflict) => conflict.column("challenge_hash").doNothing())
        .returning("challenge_hash")
        .executeTakeFirst();
      return inserted ? { status: "verified" } : { status: "rejected", reason: "replayed" };
    },
  };
}

/** The widget submits base64-encoded JSON; plain JSON is accepted too. */
function decodeAltchaPayload(token: string): v.InferOutput<typeof payloadSchema> | null {
  for (const candidate of [() => Buffer.from(token, "base64").toString("utf8"), () => token]) {
    try {
      const parsed = v.safeParse(payloadSchema, JSON.parse(candidate()));
      if (parsed.success) {
        return parsed.output;
      }
    } catch {
      // Not this encoding; try the next one.
    }
  }
  return null;
}
