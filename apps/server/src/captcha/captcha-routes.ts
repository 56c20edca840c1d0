import { Hono } from "hono";
import { HttpError } from "../http/http-errors.ts";
import type { Captcha } from "./captcha.ts";

/**
 * `GET /captcha/challenge`: a fresh ALTCHA challenge for the widget (404 when another provider is configured).
 *
 * @example
 * app.route("/captcha", createCaptchaRoutes({ captcha }));
 */
export function createCaptchaRoutes(options: { captcha: Captcha }): Hono {
  const routes = new Hono();
  routes.get("/challenge", async (c) => {
    if (!options.captcha.createChallenge) {
      throw new HttpError(404, `The ${options.captcha.provider} captcha does not use challenges from this server.`);
    }
    c.header("Cache-Control", "no-store");
    return c.json(await options.captcha.createChallenge());
  });
  return routes;
}
