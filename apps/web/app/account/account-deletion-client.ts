import ky, { HTTPError } from "ky";
import { readCsrfTokenFromDocumentCookie } from "@atelier/auth";

/** Deletes the signed-in user's account (`DELETE /api/account/`, issue 18). */
export const ACCOUNT_DELETION_PATH = "/api/account/";
export const ACCOUNT_DELETION_ERROR_MESSAGE = "Your account could not be deleted. Nothing was deleted; please try again in a moment.";

export type AccountDeletionResult = { status: "deleted" } | { status: "reauthenticate" } | { status: "error"; message: string };

/**
 * @example
 * const result = await createAccountDeletionClient().deleteAccount();
 * if (result.status === "reauthenticate") navigate("/account/reauthenticate?next=/account/delete");
 */
export function createAccountDeletionClient({ fetch: fetchImplementation = (input, init) => fetch(input, init) }: { fetch?: typeof globalThis.fetch } = {}) {
  const api = ky.create({ credentials: "same-origin", fetch: fetchImplementation, retry: 0, timeout: 60_000 });
  return {
    async deleteAccount(): Promise<AccountDeletionResult> {
      try {
        await api.delete(ACCOUNT_DELETION_PATH, { headers: { "X-CSRFToken": readCsrfTokenFromDocumentCookie() ?? "" } });
        return { status: "deleted" };
      } catch (error) {
        if (error instanceof HTTPError && error.response.status === 401) {
          // allauth's reauthentication 401 carries the flows; a plain 401 means the session is gone.
          const body = (await error.response.json().catch(() => null)) as { data?: { flows?: { id?: string }[] } } | null;
          if (body?.data?.flows?.some((flow) => flow.id === "reauthenticate" || flow.id === "mfa_reauthenticate")) return { status: "reauthenticate" };
        }
        const message = error instanceof HTTPError ? ((await error.response.json().catch(() => null)) as { message?: string } | null)?.message : undefined;
        return { status: "error", message: message ?? ACCOUNT_DELETION_ERROR_MESSAGE };
      }
    },
  };
}

export type AccountDeletionClient = ReturnType<typeof createAccountDeletionClient>;
export const accountDeletionClient = createAccountDeletionClient();
