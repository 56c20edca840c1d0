import type { MiddlewareHandler } from "hono";

export { warmUpSubtitleParseWorker } from "@atelier/subtitles/node";
export { createStudyRoutes, type StudyRoutesOptions } from "./study-routes.ts";
export { createUploadBodyLimit } from "./subtitle-upload.ts";

/**
 * Adds `error` to the CSRF middleware's 403 answer on the study API, whose clients read that field
 * (the body keeps `message` and `errors` for everyone else).
 */
export function createStudyCsrfFailureShape(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status !== 403 || !(c.res.headers.get("content-type") ?? "").startsWith("application/json")) return;
    const body = (await c.res.clone().json().catch(() => null)) as { message?: unknown; errors?: { code?: unknown }[] } | null;
    if (body?.errors?.[0]?.code !== "csrf_failed" || typeof body.message !== "string") return;
    const headers = new Headers(c.res.headers);
    headers.delete("content-length");
    c.res = new Response(JSON.stringify({ ...body, error: body.message }), { status: 403, headers });
  };
}
