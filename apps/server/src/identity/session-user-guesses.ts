import { hashToken } from "./secrets.ts";

/** Sessions remembered at most; past that the oldest is forgotten (a guess missing costs one round trip, nothing else). */
export const rememberedSessionsAtMost = 10_000;

/**
 * Which user each recently seen session token belonged to when this process last read it (decision 0045). A guess,
 * never an authorization: a caller may start reading a signed-in learner's data with it while the session is read, and
 * must drop what it read unless the session turns out to be that user's. Tokens are kept as their hashes, as the
 * database keeps them.
 *
 * @example
 * const guesses = createSessionUserGuesses();
 * guesses.remember(token, user?.id ?? null);
 * guesses.guess(token); // the user id, or null
 */
export function createSessionUserGuesses(capacity = rememberedSessionsAtMost) {
  const userIdOfTokenHash = new Map<string, string>();
  return {
    /** Records what the session's read found: its user, or `null` for a session that signs nobody in. */
    remember(token: string, userId: string | null): void {
      this.rememberByTokenHash(hashToken(token), userId);
    },
    /** `remember` for a token already hashed (`hashToken`). */
    rememberByTokenHash(tokenHash: string, userId: string | null): void {
      if (userId === null) {
        userIdOfTokenHash.delete(tokenHash);
        return;
      }
      userIdOfTokenHash.delete(tokenHash);
      userIdOfTokenHash.set(tokenHash, userId);
      if (userIdOfTokenHash.size > capacity) {
        const oldest = userIdOfTokenHash.keys().next().value;
        if (oldest !== undefined) userIdOfTokenHash.delete(oldest);
      }
    },
    /** The user the token's session belonged to when last read here, or `null` if it was not read lately. */
    guess(token: string): string | null {
      return userIdOfTokenHash.get(hashToken(token)) ?? null;
    },
    /** `guess` for a token already hashed (`hashToken`). */
    guessByTokenHash(tokenHash: string): string | null {
      return userIdOfTokenHash.get(tokenHash) ?? null;
    },
    get size(): number {
      return userIdOfTokenHash.size;
    },
  };
}

export type SessionUserGuesses = ReturnType<typeof createSessionUserGuesses>;
