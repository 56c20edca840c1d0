import * as v from "valibot";

/**
 * Every flow id django-allauth 65.16.1 sends in `data.flows` (`allauth/headless/constants.py`).
 * The OpenAPI file lists fewer; the code wins (see the API notes, "spec≠code").
 */
export const FLOW_IDS = [
  "login",
  "login_by_code",
  "signup",
  "verify_email",
  "verify_phone",
  "password_reset_by_code",
  "provider_redirect",
  "provider_token",
  "provider_signup",
  "mfa_authenticate",
  "reauthenticate",
  "mfa_reauthenticate",
  "mfa_signup_webauthn",
  "mfa_login_webauthn",
  "mfa_trust",
] as const;

/** The id of an allauth flow, such as `"login"` or `"mfa_authenticate"`. */
export type FlowId = (typeof FLOW_IDS)[number];

/** The authenticator types, in allauth's enum order. */
export const AUTHENTICATOR_TYPES = ["recovery_codes", "totp", "webauthn"] as const;

/** The type of a second factor: `"totp"`, `"recovery_codes"` or `"webauthn"`. */
export type AuthenticatorType = (typeof AUTHENTICATOR_TYPES)[number];

/** How a session was (re)authenticated: one entry of `data.methods`. */
export type AuthenticationMethodKind = "password" | "password_reset" | "code" | "socialaccount" | "mfa";

// Newer allauth releases add flow ids, authenticator types and methods. Rejecting an unknown one would make a
// whole authentication response unreadable, so these strings pass through; `pathForFlow` reports unknown flows.
const flowIdSchema = v.pipe(
  v.string(),
  v.transform((id) => id as FlowId),
);
const authenticatorTypeSchema = v.pipe(
  v.string(),
  v.transform((type) => type as AuthenticatorType),
);
const authenticationMethodKindSchema = v.pipe(
  v.string(),
  v.transform((method) => method as AuthenticationMethodKind),
);
const providerFlowSchema = v.pipe(
  v.string(),
  v.transform((flow) => flow as "provider_redirect" | "provider_token"),
);

/** Seconds since the epoch, with a fraction (allauth's `Timestamp`). */
const timestampSchema = v.number();

export const errorItemSchema = v.object({
  message: v.string(),
  code: v.string(),
  param: v.optional(v.string()),
});

export const providerSchema = v.object({
  id: v.string(),
  name: v.string(),
  client_id: v.optional(v.string()),
  openid_configuration_url: v.optional(v.string()),
  flows: v.array(providerFlowSchema),
});

// Loose: a project's headless adapter may serialize more user fields (allauth's `serialize_user`).
export const userSchema = v.looseObject({
  id: v.union([v.number(), v.string()]),
  display: v.string(),
  email: v.optional(v.string()),
  username: v.optional(v.string()),
  has_usable_password: v.boolean(),
});

export const flowSchema = v.object({
  id: flowIdSchema,
  is_pending: v.optional(v.boolean()),
  types: v.optional(v.array(authenticatorTypeSchema)),
  providers: v.optional(v.array(v.string())),
  provider: v.optional(providerSchema),
});

export const authenticationMethodSchema = v.object({
  method: authenticationMethodKindSchema,
  at: timestampSchema,
  email: v.optional(v.string()),
  username: v.optional(v.string()),
  phone: v.optional(v.string()),
  reauthenticated: v.optional(v.boolean()),
  provider: v.optional(v.string()),
  uid: v.optional(v.string()),
  id: v.optional(v.union([v.number(), v.string()])),
  type: v.optional(authenticatorTypeSchema),
  passwordless: v.optional(v.boolean()),
});

const tokenMetaEntries = {
  session_token: v.optional(v.string()),
  access_token: v.optional(v.string()),
  refresh_token: v.optional(v.string()),
  expires_in: v.optional(v.number()),
};

export const authenticatedResponseSchema = v.object({
  status: v.literal(200),
  data: v.object({
    user: userSchema,
    methods: v.array(authenticationMethodSchema),
  }),
  meta: v.object({ is_authenticated: v.literal(true), ...tokenMetaEntries }),
});

export const notAuthenticatedResponseSchema = v.object({
  status: v.literal(401),
  data: v.object({ flows: v.array(flowSchema) }),
  // allauth sends `null` instead of `false` from its `UnauthorizedResponse` (API notes §2).
  meta: v.object({ is_authenticated: v.nullish(v.literal(false)), ...tokenMetaEntries }),
});

export const reauthenticationRequiredResponseSchema = v.object({
  status: v.literal(401),
  data: v.object({
    user: userSchema,
    methods: v.array(authenticationMethodSchema),
    flows: v.array(flowSchema),
  }),
  meta: v.object({ is_authenticated: v.literal(true), ...tokenMetaEntries }),
});

export const sessionGoneResponseSchema = v.object({
  status: v.literal(410),
  data: v.optional(v.object({ flows: v.optional(v.array(flowSchema), () => []) }), () => ({ flows: [] })),
  meta: v.optional(v.object({ is_authenticated: v.nullish(v.boolean()) }), () => ({ is_authenticated: null })),
});

export const authenticationResponseSchema = v.union([
  authenticatedResponseSchema,
  reauthenticationRequiredResponseSchema,
  notAuthenticatedResponseSchema,
  sessionGoneResponseSchema,
]);

export const configurationSchema = v.object({
  account: v.looseObject({
    login_methods: v.optional(v.array(v.string())),
    is_open_for_signup: v.boolean(),
    email_verification_by_code_enabled: v.boolean(),
    login_by_code_enabled: v.boolean(),
    password_reset_by_code_enabled: v.optional(v.boolean()),
    authentication_method: v.optional(v.string()),
  }),
  socialaccount: v.optional(v.object({ providers: v.array(providerSchema) })),
  mfa: v.optional(
    v.looseObject({
      supported_types: v.array(authenticatorTypeSchema),
      passkey_login_enabled: v.optional(v.boolean()),
    }),
  ),
  usersessions: v.optional(v.object({ track_activity: v.boolean() })),
});

export const configurationResponseSchema = v.object({ status: v.literal(200), data: configurationSchema });

export const emailAddressSchema = v.object({ email: v.string(), primary: v.boolean(), verified: v.boolean() });

export const emailAddressesResponseSchema = v.object({ status: v.literal(200), data: v.array(emailAddressSchema) });

export const userSessionSchema = v.object({
  id: v.union([v.number(), v.string()]),
  user_agent: v.string(),
  ip: v.string(),
  created_at: timestampSchema,
  is_current: v.boolean(),
  last_seen_at: v.optional(timestampSchema),
});

export const userSessionsResponseSchema = v.object({ status: v.literal(200), data: v.array(userSessionSchema) });

export const emailVerificationInfoResponseSchema = v.object({
  status: v.literal(200),
  data: v.object({ email: v.string(), user: userSchema }),
  meta: v.object({ is_authenticating: v.boolean() }),
});

export const passwordResetKeyInfoResponseSchema = v.object({
  status: v.literal(200),
  data: v.optional(v.object({ user: v.optional(userSchema) }), () => ({})),
});

/** A third-party account connected to a user (spec §3): the provider's id for it, a display name, the provider. */
export const providerAccountSchema = v.object({
  uid: v.string(),
  display: v.string(),
  provider: providerSchema,
});

/** `GET` / `DELETE account/providers`: the connected accounts (after a disconnect, the remaining ones). */
export const providerAccountsResponseSchema = v.object({ status: v.literal(200), data: v.array(providerAccountSchema) });

// The user of a pending provider sign-up is not saved yet, so allauth has no id to send (it drops `None` values).
const pendingProviderSignupUserSchema = v.looseObject({
  id: v.optional(v.union([v.number(), v.string()])),
  display: v.string(),
  email: v.optional(v.string()),
  username: v.optional(v.string()),
  has_usable_password: v.boolean(),
});

/** `GET auth/provider/signup`: what the provider told about the visitor (addresses, account) before sign-up ends. */
export const providerSignupResponseSchema = v.object({
  status: v.literal(200),
  data: v.object({
    email: v.array(emailAddressSchema),
    account: providerAccountSchema,
    user: pendingProviderSignupUserSchema,
  }),
});

/** `{"status": 200}` and nothing else (password reset request in link mode, resends). */
export const statusOkResponseSchema = v.object({ status: v.literal(200) });

export const badRequestResponseSchema = v.object({ status: v.literal(400), errors: v.array(errorItemSchema) });

const otherFailureEntries = {
  errors: v.optional(v.array(errorItemSchema)),
  meta: v.optional(v.record(v.string(), v.unknown())),
};

export const forbiddenResponseSchema = v.object({ status: v.literal(403), ...otherFailureEntries });
export const notFoundResponseSchema = v.object({ status: v.literal(404), ...otherFailureEntries });
export const conflictResponseSchema = v.object({ status: v.literal(409), ...otherFailureEntries });
export const tooManyRequestsResponseSchema = v.object({ status: v.literal(429), ...otherFailureEntries });

/** `created_at` / `last_used_at` of every authenticator (seconds since the epoch; `last_used_at` null when unused). */
const authenticatorTimestampEntries = {
  created_at: timestampSchema,
  last_used_at: v.nullish(timestampSchema, null),
};

export const totpAuthenticatorSchema = v.object({ type: v.literal("totp"), ...authenticatorTimestampEntries });

export const recoveryCodesAuthenticatorSchema = v.object({
  type: v.literal("recovery_codes"),
  ...authenticatorTimestampEntries,
  total_code_count: v.number(),
  unused_code_count: v.number(),
  /** Only in `GET/POST account/authenticators/recovery-codes`, never in the list. */
  unused_codes: v.optional(v.array(v.string())),
});

export const webAuthnAuthenticatorSchema = v.object({
  type: v.literal("webauthn"),
  ...authenticatorTimestampEntries,
  id: v.union([v.number(), v.string()]),
  name: v.string(),
  is_passwordless: v.optional(v.boolean()),
});

export const authenticatorSchema = v.variant("type", [
  totpAuthenticatorSchema,
  recoveryCodesAuthenticatorSchema,
  webAuthnAuthenticatorSchema,
]);

/** The list of `GET account/authenticators`; entries of a type this client does not know are left out (lenient). */
export const authenticatorsResponseSchema = v.object({
  status: v.literal(200),
  data: v.pipe(
    v.array(v.unknown()),
    v.transform((entries) =>
      entries.flatMap((entry) => {
        const parsed = v.safeParse(authenticatorSchema, entry);
        return parsed.success ? [parsed.output] : [];
      }),
    ),
  ),
});

const recoveryCodesGeneratedMeta = v.optional(v.looseObject({ recovery_codes_generated: v.optional(v.boolean()) }));

export const totpAuthenticatorResponseSchema = v.object({
  status: v.literal(200),
  data: totpAuthenticatorSchema,
  meta: recoveryCodesGeneratedMeta,
});

export const recoveryCodesResponseSchema = v.object({ status: v.literal(200), data: recoveryCodesAuthenticatorSchema });

export const webAuthnAuthenticatorResponseSchema = v.object({
  status: v.literal(200),
  data: webAuthnAuthenticatorSchema,
  meta: recoveryCodesGeneratedMeta,
});

/** `publicKey` as serialized by the server (binary fields in base64url), ready for `parse…OptionsFromJSON`. */
const publicKeyOptionsJsonSchema = v.looseObject({ challenge: v.string() });

export const webAuthnCreationOptionsResponseSchema = v.object({
  status: v.literal(200),
  data: v.object({ creation_options: v.looseObject({ publicKey: publicKeyOptionsJsonSchema }) }),
});

export const webAuthnRequestOptionsResponseSchema = v.object({
  status: v.literal(200),
  data: v.object({ request_options: v.looseObject({ publicKey: publicKeyOptionsJsonSchema }) }),
});

/** A signed-in user as allauth serializes it. */
export type AllauthUser = v.InferOutput<typeof userSchema>;
/** One entry of `data.flows`: a way to authenticate, pending when `is_pending` is true. */
export type Flow = v.InferOutput<typeof flowSchema>;
/** A third-party provider as listed in the configuration and in provider flows. */
export type AllauthProvider = v.InferOutput<typeof providerSchema>;
/** One record of how the session was authenticated (`data.methods[]`). */
export type AuthenticationMethod = v.InferOutput<typeof authenticationMethodSchema>;
/** One error of a 400 answer: `param` names the field, and is absent for errors of the whole form. */
export type AllauthErrorItem = v.InferOutput<typeof errorItemSchema>;
/** The `data` of `GET /config`. */
export type AllauthConfiguration = v.InferOutput<typeof configurationSchema>;
export type ConfigurationResponse = v.InferOutput<typeof configurationResponseSchema>;
/** An email address of the signed-in user. */
export type EmailAddress = v.InferOutput<typeof emailAddressSchema>;
export type EmailAddressesResponse = v.InferOutput<typeof emailAddressesResponseSchema>;
/** One of the user's sessions (`allauth.usersessions`); times are seconds since the epoch. */
export type UserSession = v.InferOutput<typeof userSessionSchema>;
export type UserSessionsResponse = v.InferOutput<typeof userSessionsResponseSchema>;
/** A third-party account connected to the signed-in user. */
export type ProviderAccount = v.InferOutput<typeof providerAccountSchema>;
export type ProviderAccountsResponse = v.InferOutput<typeof providerAccountsResponseSchema>;
/** The pending provider sign-up: the provider's addresses (maybe none), its account, the user to be created. */
export type ProviderSignupResponse = v.InferOutput<typeof providerSignupResponseSchema>;
export type EmailVerificationInfoResponse = v.InferOutput<typeof emailVerificationInfoResponseSchema>;
export type PasswordResetKeyInfoResponse = v.InferOutput<typeof passwordResetKeyInfoResponseSchema>;
export type StatusOkResponse = v.InferOutput<typeof statusOkResponseSchema>;

/** 200: signed in. */
export type AuthenticatedResponse = v.InferOutput<typeof authenticatedResponseSchema>;
/** 401 with `meta.is_authenticated` false (or null): signed out; `data.flows` says what can be done next. */
export type NotAuthenticatedResponse = v.InferOutput<typeof notAuthenticatedResponseSchema>;
/** 401 with `meta.is_authenticated` true: signed in, but a sensitive action needs a fresh authentication. */
export type ReauthenticationRequiredResponse = v.InferOutput<typeof reauthenticationRequiredResponseSchema>;
/** 410 (app clients only): the session token is unknown or expired; the client has dropped it. */
export type SessionGoneResponse = v.InferOutput<typeof sessionGoneResponseSchema>;
/** Any answer that says who is signed in: 200 authenticated, 401 and 410. */
export type AuthenticationResponse =
  | AuthenticatedResponse
  | NotAuthenticatedResponse
  | ReauthenticationRequiredResponse
  | SessionGoneResponse;

export type AllauthBadRequestResponse = v.InferOutput<typeof badRequestResponseSchema>;
export type AllauthForbiddenResponse = v.InferOutput<typeof forbiddenResponseSchema>;
export type AllauthNotFoundResponse = v.InferOutput<typeof notFoundResponseSchema>;
export type AllauthConflictResponse = v.InferOutput<typeof conflictResponseSchema>;
export type AllauthTooManyRequestsResponse = v.InferOutput<typeof tooManyRequestsResponseSchema>;

/** A TOTP authenticator (authenticator app). */
export type TotpAuthenticator = v.InferOutput<typeof totpAuthenticatorSchema>;
/** The recovery codes; `unused_codes` only when the codes themselves were asked for. */
export type RecoveryCodesAuthenticator = v.InferOutput<typeof recoveryCodesAuthenticatorSchema>;
/** A security key or passkey. */
export type WebAuthnAuthenticator = v.InferOutput<typeof webAuthnAuthenticatorSchema>;
/** Any authenticator of `GET account/authenticators`, discriminated on `type`. */
export type Authenticator = v.InferOutput<typeof authenticatorSchema>;
export type AuthenticatorsResponse = v.InferOutput<typeof authenticatorsResponseSchema>;
export type TotpAuthenticatorResponse = v.InferOutput<typeof totpAuthenticatorResponseSchema>;
export type RecoveryCodesResponse = v.InferOutput<typeof recoveryCodesResponseSchema>;
export type WebAuthnAuthenticatorResponse = v.InferOutput<typeof webAuthnAuthenticatorResponseSchema>;
export type WebAuthnCreationOptionsResponse = v.InferOutput<typeof webAuthnCreationOptionsResponseSchema>;
export type WebAuthnRequestOptionsResponse = v.InferOutput<typeof webAuthnRequestOptionsResponseSchema>;
/** `{ publicKey }` of `creation_options`: JSON, to pass to `createWebAuthnCredential`. */
export type WebAuthnCreationOptionsJson = WebAuthnCreationOptionsResponse["data"]["creation_options"];
/** `{ publicKey }` of `request_options`: JSON, to pass to `getWebAuthnCredential`. */
export type WebAuthnRequestOptionsJson = WebAuthnRequestOptionsResponse["data"]["request_options"];
