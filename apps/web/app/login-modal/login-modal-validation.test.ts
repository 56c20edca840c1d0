import { describe, expect, it } from "vitest";
import { validateLoginModalEmailStep } from "./login-modal-validation.ts";

describe("validateLoginModalEmailStep", () => {
  it("should require the e-mail and the password to log in", () => {
    expect(validateLoginModalEmailStep({ email: " ", password: "", password2: "" }, "login")).toEqual({
      email: ["Email is required"],
      password: ["Password is required"],
    });
  });

  it("should require the confirmation to sign up", () => {
    expect(validateLoginModalEmailStep({ email: "a@b.ch", password: "secret-1", password2: "" }, "signup")).toEqual({ password2: ["Confirm password is required"] });
  });

  it("should show 'Passwords do not match.' on the confirmation", () => {
    expect(validateLoginModalEmailStep({ email: "a@b.ch", password: "secret-1", password2: "secret-2" }, "signup")).toEqual({ password2: ["Passwords do not match."] });
  });

  it("should accept a complete sign-up", () => {
    expect(validateLoginModalEmailStep({ email: "a@b.ch", password: "secret-1", password2: "secret-1" }, "signup")).toEqual({});
  });
});
