import { useAuthStatus, useConfiguration } from "@atelier/auth/react";

/** The account settings the screens read from `GET /config` (spec §3 Configuration). */
export function useAccountSettings() {
  const configuration = useConfiguration();
  const account = configuration?.account;
  return {
    loginByCodeEnabled: account?.login_by_code_enabled === true,
    emailVerificationByCodeEnabled: account?.email_verification_by_code_enabled === true,
    passwordResetByCodeEnabled: account?.password_reset_by_code_enabled === true,
    trackSessionActivity: configuration?.usersessions?.track_activity === true,
  };
}

export { useAuthStatus };
