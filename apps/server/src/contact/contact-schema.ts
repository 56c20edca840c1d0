import * as v from "valibot";
import { isValidEmailAddress } from "../mail/email-address-syntax.ts";

export const contactFieldLimits = { name: 200, email: 254, message: 5_000 } as const;

const requiredTrimmedText = (emptyMessage: string, maximumLength: number, tooLongMessage: string) =>
  // A missing field becomes "" so it fails with the same sentence as an empty one.
  // U+0000 is invisible and PostgreSQL cannot store it (the insert would fail with a 500), so it is dropped.
  v.optional(v.pipe(v.string(emptyMessage), v.transform((text) => text.replaceAll("\u0000", "")), v.trim(), v.nonEmpty(emptyMessage), v.maxLength(maximumLength, tooLongMessage)), "");

/** The JSON body of `POST /messages/contact/`. `website` is a honeypot that people leave empty. */
export const contactRequestSchema = v.object({
  name: requiredTrimmedText("Please enter your name.", contactFieldLimits.name, `Please shorten your name to at most ${contactFieldLimits.name} characters.`),
  email: v.pipe(
    requiredTrimmedText("Please enter your e-mail address.", contactFieldLimits.email, `Please use an e-mail address of at most ${contactFieldLimits.email} characters.`),
    v.check(isValidEmailAddress, "Please enter a valid e-mail address, such as name@example.ch."),
  ),
  message: requiredTrimmedText("Please write a message.", contactFieldLimits.message, `Please shorten your message to at most ${contactFieldLimits.message} characters.`),
  recaptchaToken: v.optional(v.nullable(v.string("Please complete the captcha verification")), ""),
  website: v.optional(v.nullable(v.unknown())),
});

export type ContactRequest = v.InferOutput<typeof contactRequestSchema>;
