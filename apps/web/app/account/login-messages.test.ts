import { describe, expect, it } from "vitest";
import { AUTHENTICATION_FAILED_MESSAGE, INVALID_LOGIN_MESSAGE, loginFailureMessages } from "./login-messages.ts";

describe("loginFailureMessages", () => {
  it("should keep the server's messages", () => {
    const errors = [{ message: "The email address and/or password you specified are not correct.", code: "email_password_mismatch", param: "password" }];
    expect(loginFailureMessages(errors)).toEqual(errors);
  });

  it("should say 'Authentication failed' for an error without a message", () => {
    expect(loginFailureMessages([{ message: "", code: "x" }])[0]?.message).toBe(AUTHENTICATION_FAILED_MESSAGE);
  });

  it("should say 'Invalid email or password' when the server gave no error", () => {
    expect(loginFailureMessages([])[0]?.message).toBe(INVALID_LOGIN_MESSAGE);
  });
});
