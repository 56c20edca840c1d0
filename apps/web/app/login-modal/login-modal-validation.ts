import { PASSWORD_MISMATCH_MODAL_MESSAGE } from "../account/login-messages.ts";

export interface LoginModalEmailFields {
  email: string;
  password: string;
  password2: string;
}

/** The modal's own checks before any call (spec §5), as messages per field. */
export function validateLoginModalEmailStep(fields: LoginModalEmailFields, mode: "login" | "signup"): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!fields.email.trim()) errors.email = ["Email is required"];
  if (!fields.password) errors.password = ["Password is required"];
  if (mode === "signup") {
    if (!fields.password2) errors.password2 = ["Confirm password is required"];
    else if (fields.password && fields.password !== fields.password2) errors.password2 = [PASSWORD_MISMATCH_MODAL_MESSAGE];
  }
  return errors;
}
