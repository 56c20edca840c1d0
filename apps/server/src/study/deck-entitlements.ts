import { HttpError } from "../http/http-errors.ts";

/** What the study API needs to know of a user's plan (billing's `PlanEntitlements` plus the plan's name). */
export type StudyEntitlements = {
  /** The active plan's name, `null` without one. */
  planName: string | null;
  /** How many private decks the user may keep; `null` = no limit. */
  privateDecks: number | null;
  /** Whether decks that other learners shared may be exported. */
  sharedDeckExports: boolean;
};

export type EntitlementsOfUser = (userId: string) => Promise<StudyEntitlements>;

export const signInToExportMessage = "Please sign in to export flashcards.";
export const sharedDeckExportMessage =
  "Exporting a deck that another learner shared is part of the Plus and Studio plans. Your own decks can always be exported.";

function decks(count: number): string {
  return `${count} private deck${count === 1 ? "" : "s"}`;
}

export function privateDeckLimitMessage(entitlements: StudyEntitlements, privateDeckCount: number): string {
  const allowance =
    entitlements.planName === null
      ? `Without a plan you can keep ${decks(entitlements.privateDecks ?? 0)}`
      : `Your ${entitlements.planName} plan keeps up to ${decks(entitlements.privateDecks ?? 0)}`;
  return `${allowance}, and you have ${privateDeckCount}. Make this deck public, make one of your private decks public, or choose a larger plan on the pricing page.`;
}

/** Refuses (403) a new private deck when the user already keeps as many as the plan allows. */
export function assertRoomForAnotherPrivateDeck(entitlements: StudyEntitlements, privateDeckCount: number): void {
  if (entitlements.privateDecks !== null && privateDeckCount >= entitlements.privateDecks) {
    throw new HttpError(403, privateDeckLimitMessage(entitlements, privateDeckCount));
  }
}

/** The wire shape of the user's private-deck allowance, for the list and the upload form's lock. */
export function privateDeckAllowanceJson(entitlements: StudyEntitlements, privateDeckCount: number) {
  return {
    plan: entitlements.planName,
    private_decks: privateDeckCount,
    private_deck_limit: entitlements.privateDecks,
    may_add_private_deck: entitlements.privateDecks === null || privateDeckCount < entitlements.privateDecks,
    may_export_shared_decks: entitlements.sharedDeckExports,
  };
}
