import * as v from "valibot";
import { manyLinesText, oneLineText } from "../http/well-formed-text.ts";
import { isValidEmailAddress } from "../mail/email-address-syntax.ts";

export const contactFieldLimits = { name: 200, email: 254, message: 5_000 } as const;

const requiredTrimmedText = (emptyMessage: string, maximumLength: number, tooLongMessage: string, clean: (text: string) => string = oneLineText) =>
  // A missing field becomes "" so it fails with the same sentence as an empty one. Cleaned as every typed text is
  // (invisible and control characters, half surrogate pairs, which SQLite and PostgreSQL would store each their way).
  v.optional(v.pipe(v.string(emptyMessage), v.transform(clean), v.nonEmpty(emptyMessage), v.maxLength(maximumLength, tooLongMessage)), "");

/** The JSON body of `POST /messages/contact/`. `website` is a honeypot that people leave empty. */
export const contactRequestSchema = v.object({
  name: requiredTrimmedText("Please enter your name.", contactFieldLimits.name, `Please shorten your name to at most ${contactFieldLimits.name} characters.`),
  email: v.pipe(
    // Not cleaned but checked: an address with an invisible character in it is refused rather than changed.
    requiredTrimmedText("Please enter your e-mail address.", contactFieldLimits.email, `Please use an e-mail address of at most ${contactFieldLimits.email} characters.`, (text) => text.trim()),
    v.check(isValidEmailAddress, "Please enter a valid e-mail address, such as name@example.ch."),
  ),
  message: requiredTrimmedText("Please write a message.", contactFieldLimits.message, `Please shorten your message to at most ${contactFieldLimits.message} characters.`, manyLinesText),
  recaptchaToken: v.optional(v.nullable(v.string("Please complete the captcha verification")), ""),
  website: v.optional(v.nullable(v.unknown())),
});

export type ContactRequest = v.InferOutput<typeof contactRequestSchema>;
