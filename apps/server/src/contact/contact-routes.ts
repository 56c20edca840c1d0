import { Hono } from "hono";
import * as v from "valibot";
import type { Captcha, CaptchaVerificationResult } from "../captcha/captcha.ts";
import type { Clock } from "../clock.ts";
import type { Configuration } from "../config.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { getClientAddress } from "../http/client-address.ts";
import { HttpError, RateLimitError, RequestValidationError } from "../http/http-errors.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { RateLimiter } from "../rate-limit/rate-limiter.ts";
import { createContactMail } from "./contact-mail.ts";
import { contactRequestSchema } from "./contact-schema.ts";
import { logger } from "../logging/logger.ts";

export const contactSuccessMessage = "Thank you! Your message has been sent.";
export const captchaMissingMessage = "Please complete the captcha verification";

const captchaRejectionMessages = {
  missing: captchaMissingMessage,
  malformed: "The captcha answer could not be read. Please complete the captcha verification again.",
  invalid: "The captcha verification failed. Please complete the captcha verification again.",
  expired: "The captcha has expired. Please complete the captcha verification again.",
  replayed: "This captcha has already been used. Please complete the captcha verification again.",
} satisfies Record<Extract<CaptchaVerificationResult, { status: "rejected" }>["reason"], string>;

/**
 * `POST /messages/contact/`: validates, checks the honeypot, rate limit and captcha, stores the message, then mails it.
 *
 * @example
 * app.route("/messages", createContactRoutes({ configuration, database, mailer, captcha, rateLimiter, clock }));
 */
export function createContactRoutes(options: { configuration: Configuration; database: AtelierDatabase; mailer: Mailer; captcha: Captcha; rateLimiter: RateLimiter; clock: Clock }): Hono {
  const routes = new Hono();
  // The body's size is bounded before it gets here, with the other families (`createRequestBodyLimits`).
  routes.on("POST", ["/contact", "/contact/"], async (c) => {
    const clientAddress = getClientAddress(c, { trustProxy: options.configuration.trustProxy });
    const rateLimitDecision = await options.rateLimiter.registerRequest(clientAddress ?? "unknown");
    if (rateLimitDecision.status === "limited") {
      const minutes = Math.ceil(rateLimitDecision.retryAfterSeconds / 60);
      throw new RateLimitError(`You have sent too many messages in a short time. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, rateLimitDecision.retryAfterSeconds);
    }

    if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) {
      throw new RequestValidationError("Please send the message as JSON with the header Content-Type: application/json.");
    }
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch (error) {
      throw new RequestValidationError("The message could not be read because the request body is not valid JSON.", { cause: error });
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new RequestValidationError("Please send the message as a JSON object with name, email, message and recaptchaToken.");
    }

    // A filled honeypot is a bot: it gets the ordinary success answer so it learns nothing, but nothing is stored or sent.
    const honeypot = (body as { website?: unknown }).website;
    if (honeypot !== undefined && honeypot !== null && honeypot !== "") {
      logger.info(`Contact form: ignored a message whose honeypot field was filled (client ${clientAddress ?? "unknown"}).`);
      return c.json({ message: contactSuccessMessage }, 201);
    }

    const parsed = v.safeParse(contactRequestSchema, body, { abortEarly: true });
    if (!parsed.success) {
      throw new RequestValidationError(parsed.issues[0]?.message ?? "Please check the form and try again.");
    }
    const contact = parsed.output;

    const captchaResult = await options.captcha.verifyCaptchaToken(contact.recaptchaToken ?? "", { clientAddress });
    if (captchaResult.status === "unavailable") {
      throw new HttpError(503, "We could not check the captcha right now. Please try again in a few minutes.", { cause: captchaResult.error });
    }
    if (captchaResult.status === "rejected") {
      throw new RequestValidationError(captchaRejectionMessages[captchaResult.reason]);
    }

    const receivedAt = options.clock();
    const messageId = crypto.randomUUID();
    await options.database
      .insertInto("contact_message")
      .values({
        id: messageId,
        name: contact.name,
        email: contact.email,
        message: contact.message,
        ip_address: clientAddress,
        created_at: receivedAt.toISOString(),
        delivery_status: "pending",
        delivery_error: null,
      })
      .execute();

    // The message is already stored, so a mail failure loses nothing: the visitor still hears success and the status says "failed".
    const delivery = await options.mailer.sendMail(
      createContactMail({ name: contact.name, email: contact.email, message: contact.message, recipient: options.configuration.contactRecipient, receivedAt }),
    );
    if (delivery.status === "error") {
      logger.error({ err: delivery.error }, `Contact form: message ${messageId} is stored but its e-mail to the painter failed.`);
    }
    await options.database
      .updateTable("contact_message")
      .set(delivery.status === "sent" ? { delivery_status: "sent", delivery_error: null } : { delivery_status: "failed", delivery_error: delivery.error.message.slice(0, 2_000) })
      .where("id", "=", messageId)
      .execute();

    return c.json({ message: contactSuccessMessage }, 201);
  });
  return routes;
}
