import type { Context } from "hono";
import * as v from "valibot";
import { wellFormedText } from "../http/well-formed-text.ts";
import { isValidEmail, normalizeEmail, type EmailAddress } from "./email-addresses.ts";
import { IdentityInputError, errorItem, identityErrorMessages, type IdentityErrorCode, type IdentityErrorItem } from "./identity-errors.ts";
import type { IdentityRequest } from "./identity-request.ts";
import { validateNewPassword } from "./passwords.ts";

/*
 * The body schemas of allauth's endpoints are built from the fields below. Every check's message is an allauth error
 * code (`required`, `invalid`, …); `errorItemOf` turns a valibot issue into allauth's `{ message, code, param }`, with
 * the field's name as `param`. A body may carry fields no schema names: allauth ignores them, and so does `v.object`.
 */

const requiredCode = "required" satisfies IdentityErrorCode;

function isFilled(value: string): boolean {
  return value !== "";
}

/**
 * A JSON value as allauth's Django form field reads it (`CharField.to_python`): a missing value, null and an empty list or
 * object are empty; anything else is its text, as Python's `str` writes it, so that a TOTP code sent as the number
 * 123456 is the code "123456" and the e-mail 42 is "42", an invalid address rather than a missing one. Lists and objects
 * that are not empty read as their JSON (Python would write its own repr): no field takes one, and either text is as
 * wrong as the other.
 */
export function formTextOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : value > 0 ? "inf" : "-inf";
  if (Array.isArray(value)) return value.length === 0 ? "" : jsonTextOf(value, "[…]");
  if (typeof value === "object") return Object.keys(value).length === 0 ? "" : jsonTextOf(value, "{…}");
  return "";
}

/** The JSON of a list or object, or `nested` when it is nested too deeply to be written (thousands of levels). */
function jsonTextOf(value: object, nested: string): string {
  try {
    return JSON.stringify(value);
  } catch {
    return nested;
  }
}

/** A field read as text (`formTextOf`), well formed; U+0000 is refused, as Django refuses it in every form field. */
export const textField = v.pipe(
  v.optional(v.unknown(), ""),
  v.transform((value) => wellFormedText(formTextOf(value))),
  v.check((value) => !value.includes("\u0000"), "null_characters_not_allowed" satisfies IdentityErrorCode),
);

/** Text that may not be empty: `required`. Kept as sent (a password of spaces is a password). */
export const requiredTextField = v.pipe(textField, v.check(isFilled, requiredCode));

/** Text that may not be blank, kept as sent (a code the check trims itself). */
export const requiredUntrimmedCodeField = v.pipe(
  textField,
  v.check((value) => value.trim() !== "", requiredCode),
);

/** Text that may not be blank, trimmed (a TOTP or recovery code, a key's new name). */
export const requiredTrimmedTextField = v.pipe(textField, v.transform((value) => value.trim()), v.check(isFilled, requiredCode));

/** A new e-mail address: `required`, then `invalid`; lowercased and trimmed, as stored. */
export const emailField = v.pipe(
  textField,
  v.transform((value) => value.trim()),
  v.check(isFilled, requiredCode),
  v.check(isValidEmail, "invalid" satisfies IdentityErrorCode),
  v.transform(normalizeEmail),
);

/** One of the user's own addresses, given as its e-mail (trimmed, any case): `required`, then `unknown_email`. */
export function ownEmailAddressField(ownAddresses: readonly EmailAddress[]) {
  return v.pipe(
    textField,
    v.transform(normalizeEmail),
    v.check(isFilled, requiredCode),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const address = ownAddresses.find((candidate) => candidate.email === dataset.value);
      if (!address) {
        addIssue({ message: "unknown_email" satisfies IdentityErrorCode });
        return NEVER;
      }
      return address;
    }),
  );
}

/** A new password: `required`, then every rule it breaks (too short, too common, …) at once, as Django lists them. */
export const newPasswordField = v.pipe(
  requiredTextField,
  v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const refusal of validateNewPassword(dataset.value, "")) addIssue({ message: refusal.code });
  }),
);

/** A non-empty list (`required`) of numbers (`invalid_choice`): the ids of sessions or authenticators. */
export const numberListField = v.pipe(
  v.optional(v.unknown(), null),
  v.check((value) => Array.isArray(value) && value.length > 0, requiredCode),
  v.guard((value): value is number[] => Array.isArray(value) && value.every((item) => typeof item === "number"), "invalid_choice" satisfies IdentityErrorCode),
);

/**
 * A WebAuthn credential: an object, or a JSON string of one; `null` when absent or unreadable, and missing when falsy.
 * Registration checks that itself, after the pending ceremony is spent, so a refused attempt still costs the ceremony.
 */
export const credentialField = v.pipe(
  v.optional(v.unknown(), null),
  v.transform((credential): unknown => {
    if (typeof credential === "string") {
      try {
        return JSON.parse(credential) as unknown;
      } catch {
        return null;
      }
    }
    return credential && typeof credential === "object" ? credential : null;
  }),
);

/** A credential that must be there: `required`. */
export const requiredCredentialField = v.pipe(
  credentialField,
  v.check((credential) => Boolean(credential), requiredCode),
);

/**
 * The JSON object an endpoint takes. A field its schema needs that the body lacks is `required` (the object's own
 * message is used for missing keys); fields it does not name are dropped.
 *
 * @example
 * export const loginBody = identityBody({ email: emailField, password: requiredTextField });
 */
export function identityBody<Entries extends v.ObjectEntries>(entries: Entries) {
  return v.object(entries, requiredCode);
}

/** `identityBody` for a schema with asynchronous checks (the current password). */
export function identityBodyAsync<Entries extends v.ObjectEntriesAsync>(entries: Entries) {
  return v.objectAsync(entries, requiredCode);
}

/** allauth's error item for one valibot issue: the issue's message is the code, the field it concerns the `param`. */
export function errorItemOf(issue: v.BaseIssue<unknown>): IdentityErrorItem {
  const code = issue.message;
  if (!Object.hasOwn(identityErrorMessages, code)) {
    throw new Error(`An identity body schema refused a value with "${code}", which is not an allauth error code: give every check in identity-validation.ts a code from identity-errors.ts as its message.`);
  }
  const field = issue.path?.[0]?.key;
  return errorItem(code as IdentityErrorCode, typeof field === "string" ? field : undefined);
}

/**
 * The request's body, validated by `schema`; a refusal throws allauth's 400 with one error item per issue, in field
 * order. A handler calls it where it needs the body, after its session, stage and rate-limit checks: those answers
 * (401, 409, 429) come before any 400 about the input, as they did when the body was read by hand.
 *
 * @example
 * const { email, password } = await readValidBody(request, loginBody);
 */
export async function readValidBody<Schema extends v.GenericSchema | v.GenericSchemaAsync>(request: Pick<IdentityRequest, "c">, schema: Schema): Promise<v.InferOutput<Schema>> {
  return validateIdentityBody(schema, await readJsonObject(request.c));
}

/** Validates an already-read body; throws `IdentityInputError` with allauth's error items. */
export async function validateIdentityBody<Schema extends v.GenericSchema | v.GenericSchemaAsync>(schema: Schema, body: unknown): Promise<v.InferOutput<Schema>> {
  // One issue per field (a blank e-mail is `required`, not also `invalid`); `newPasswordField` still lists every rule.
  const result = await v.safeParseAsync(schema, body, { abortPipeEarly: true });
  if (!result.success) {
    throw new IdentityInputError(result.issues.map(errorItemOf));
  }
  return result.output;
}

/** The body as a JSON object: empty text and JSON that is not an object read as `{}`; text that is not JSON is `invalid_json`. */
async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === "") {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new IdentityInputError([errorItem("invalid_json")]);
  }
  return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}
