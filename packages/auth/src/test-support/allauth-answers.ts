// Canned answers of django-allauth 65.16.1, copied from openapi.yaml's examples and the API notes
// (/work/shared/reference/allauth-headless). Tests parse them, so they are plain JSON values.

export const userExample = {
  id: 123,
  display: "Magic Wizard",
  has_usable_password: true,
  email: "email@domain.org",
  username: "wizard",
};

export const authenticatedByPassword = {
  status: 200,
  data: {
    user: userExample,
    methods: [{ method: "password", at: 1711555057.065702, email: "email@domain.org" }],
  },
  meta: { is_authenticated: true },
};

export const authenticatedByPasswordAndTotp = {
  status: 200,
  data: {
    user: userExample,
    methods: [
      { method: "password", at: 1711555057.065702, email: "email@domain.org" },
      { method: "mfa", at: 1711555060.9375854, id: 66, type: "totp" },
    ],
  },
  meta: {
    is_authenticated: true,
    session_token: "ufwcig0zen9skyd545jc0fkq813ghar2",
    access_token: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdW",
  },
};

export const authenticatedAfterReauthentication = {
  status: 200,
  data: {
    user: userExample,
    methods: [
      { method: "password", at: 1711555057.065702, email: "email@domain.org" },
      { method: "password", at: 1711555957.1, reauthenticated: true },
    ],
  },
  meta: { is_authenticated: true },
};

export const authenticatedAsAnotherUser = {
  status: 200,
  data: {
    user: { id: 456, display: "Grace", has_usable_password: true, email: "grace@example.org" },
    methods: [{ method: "password", at: 1711555100, email: "grace@example.org" }],
  },
  meta: { is_authenticated: true },
};

export const unauthenticatedInitial = {
  status: 401,
  data: {
    flows: [
      { id: "login" },
      { id: "signup" },
      { id: "provider_redirect", providers: ["facebook", "google", "telegram"] },
      { id: "provider_token", providers: ["google"] },
    ],
  },
  meta: { is_authenticated: false },
};

export const unauthenticatedPendingEmailVerification = {
  status: 401,
  data: {
    flows: [{ id: "login" }, { id: "signup" }, { id: "verify_email", is_pending: true }],
  },
  meta: { is_authenticated: false },
};

export const unauthenticatedPendingLoginByCode = {
  status: 401,
  data: {
    flows: [{ id: "login" }, { id: "login_by_code", is_pending: true }, { id: "signup" }],
  },
  meta: { is_authenticated: false },
};

// From tests/apps/headless/mfa/test_views.py, as quoted in the API notes §2.
export const unauthenticatedPendingTotp = {
  status: 401,
  meta: { is_authenticated: false },
  data: {
    flows: [
      { id: "login" },
      { id: "login_by_code" },
      { id: "signup" },
      { id: "provider_redirect", providers: ["dummy", "unittest-server", "other-server"] },
      { id: "provider_token", providers: ["dummy", "unittest-server", "other-server"] },
      { id: "mfa_login_webauthn" },
      { id: "mfa_authenticate", is_pending: true, types: ["totp"] },
    ],
  },
};

export const unauthenticatedPendingProviderSignup = {
  status: 401,
  data: {
    flows: [
      { id: "login" },
      {
        id: "provider_signup",
        provider: {
          id: "google",
          name: "Google",
          client_id: "123.apps.googleusercontent.com",
          flows: ["provider_redirect", "provider_token"],
        },
        is_pending: true,
      },
    ],
  },
  meta: { is_authenticated: false },
};

export const reauthenticationRequired = {
  status: 401,
  data: {
    user: userExample,
    methods: [{ method: "password", at: 1711555057.065702, email: "email@domain.org" }],
    flows: [{ id: "reauthenticate" }, { id: "mfa_reauthenticate", types: ["totp"] }],
  },
  meta: { is_authenticated: true },
};

export const sessionGone = {
  status: 410,
  data: { flows: [{ id: "login" }, { id: "signup" }] },
  meta: { is_authenticated: null },
};

export const configuration = {
  status: 200,
  data: {
    account: {
      login_methods: ["email"],
      is_open_for_signup: true,
      email_verification_by_code_enabled: true,
      login_by_code_enabled: true,
      password_reset_by_code_enabled: false,
      authentication_method: "email",
    },
    socialaccount: {
      providers: [
        {
          id: "google",
          name: "Google",
          flows: ["provider_redirect", "provider_token"],
          client_id: "123.apps.googleusercontent.com",
          openid_configuration_url: "https://accounts.google.com/.well-known/openid-configuration",
        },
      ],
    },
    mfa: { supported_types: ["recovery_codes", "totp"], passkey_login_enabled: false },
    usersessions: { track_activity: false },
  },
};

export const passwordMismatch = {
  status: 400,
  errors: [
    {
      message: "The email address and/or password you specified are not correct.",
      code: "email_password_mismatch",
      param: "password",
    },
  ],
};

export const tooManyLoginAttempts = {
  status: 400,
  errors: [{ message: "Too many failed login attempts. Try again later.", code: "too_many_login_attempts" }],
};

export const emailAddresses = {
  status: 200,
  data: [
    { email: "email@domain.org", primary: true, verified: true },
    { email: "second@domain.org", primary: false, verified: false },
  ],
};

export const userSessions = {
  status: 200,
  data: [
    { user_agent: "Mozilla Firefox", ip: "127.2.3.192", created_at: 1711555057.06, is_current: true, id: 123 },
    {
      user_agent: "Safari",
      ip: "10.0.0.2",
      created_at: 1711000000,
      is_current: false,
      id: 124,
      last_seen_at: 1711500000,
    },
  ],
};

export const emailVerificationInfo = {
  status: 200,
  data: { email: "email@domain.org", user: userExample },
  meta: { is_authenticating: true },
};

export const statusOk = { status: 200 };
export const conflict = { status: 409 };
export const forbidden = { status: 403 };
export const tooManyRequests = { status: 429 };
