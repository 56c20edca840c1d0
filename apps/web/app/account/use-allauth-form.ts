import { useState } from "react";
import { errorsByParam, type AllauthErrorItem } from "@atelier/auth";

export interface AllauthFormErrors {
  byParam: Record<string, string[]>;
  general: string[];
}

/** The general error of a call that threw (network, unexpected answer) when the form names no sentence of its own. */
export const UNEXPECTED_FAILURE_MESSAGE = "Something went wrong. Please try again.";

const noErrors: AllauthFormErrors = { byParam: {}, general: [] };

/**
 * Runs one submission at a time and keeps the server's errors per field (spec §5: errors with a param are shown under
 * that field, the others as a general error). A thrown error (network, unexpected answer) becomes a general error.
 */
export function useAllauthForm(unexpectedFailureMessage = UNEXPECTED_FAILURE_MESSAGE) {
  const [errors, setErrors] = useState<AllauthFormErrors>(noErrors);
  const [submitState, setSubmitState] = useState<"idle" | "submitting">("idle");

  async function submit<T>(action: () => Promise<T & { errors?: AllauthErrorItem[] }>): Promise<(T & { errors?: AllauthErrorItem[] }) | undefined> {
    setSubmitState("submitting");
    setErrors(noErrors);
    try {
      const result = await action();
      if (result.errors?.length) setErrors(errorsByParam(result.errors));
      return result;
    } catch (error) {
      console.error(error);
      setErrors({ byParam: {}, general: [unexpectedFailureMessage] });
      return undefined;
    } finally {
      setSubmitState("idle");
    }
  }

  return { errors, setErrors, submit, submitting: submitState === "submitting" };
}
