import { afterEach, describe, expect, it, vi } from "vitest";
import { WebAuthnUnsupportedError } from "@atelier/auth";
import {
  RECOVERY_CODES_FILE_NAME,
  WEBAUTHN_CANCELLED_MESSAGE,
  WEBAUTHN_FAILED_MESSAGE,
  WEBAUTHN_UNSUPPORTED_MESSAGE,
  downloadRecoveryCodes,
  recoveryCodesFileText,
  webAuthnErrorMessage,
} from "./mfa-helpers.ts";
import { secondFactorPath } from "./second-factor-flows.ts";

afterEach(() => vi.restoreAllMocks());

describe("given the two-factor helpers", () => {
  it("should download the codes as a text file, one a line", () => {
    const createObjectURL = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:codes");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    const clicked: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    downloadRecoveryCodes(["11111111", "22222222"]);
    expect(clicked).toEqual([{ href: "blob:codes", download: RECOVERY_CODES_FILE_NAME }]);
    expect((createObjectURL.mock.calls[0]?.[0] as Blob).type).toBe("text/plain");
    expect(recoveryCodesFileText(["11111111", "22222222"])).toBe("Atelier recovery codes\n\n11111111\n22222222\n");
  });

  it("should explain WebAuthn failures", () => {
    expect(webAuthnErrorMessage(new WebAuthnUnsupportedError())).toBe(WEBAUTHN_UNSUPPORTED_MESSAGE);
    expect(webAuthnErrorMessage(Object.assign(new Error("x"), { name: "NotAllowedError" }))).toBe(WEBAUTHN_CANCELLED_MESSAGE);
    expect(webAuthnErrorMessage(new Error("other"))).toBe(WEBAUTHN_FAILED_MESSAGE);
  });

  it("should name the page of each second-factor type as the flow paths do", () => {
    expect(secondFactorPath("authenticate", "recovery_codes")).toBe("/account/authenticate/recovery-codes");
    expect(secondFactorPath("reauthenticate", "webauthn")).toBe("/account/reauthenticate/webauthn");
  });
});
