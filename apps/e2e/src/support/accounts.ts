import type { Page, Request } from "playwright-core";

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** The newest mail to an address in the development outbox, waiting for it to arrive. */
export async function waitForMail(origin: string, to: string, subjectIncludes: string, since = 0): Promise<OutboxMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await fetch(`${origin}/dev/outbox?to=${encodeURIComponent(to)}`);
    const { mails } = (await response.json()) as { mails: OutboxMail[] };
    const matching = mails.filter((mail) => mail.subject.includes(subjectIncludes));
    if (matching.length > since) return matching[0]!;
    if (Date.now() > deadline) throw new Error(`No mail "${subjectIncludes}" to ${to} arrived; the outbox holds: ${mails.map((mail) => mail.subject).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export async function countMails(origin: string, to: string, subjectIncludes: string): Promise<number> {
  const { mails } = (await (await fetch(`${origin}/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as { mails: OutboxMail[] };
  return mails.filter((mail) => mail.subject.includes(subjectIncludes)).length;
}

export function codeInMail(mail: OutboxMail): string {
  const match = /Your code: ([A-Z0-9-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No code in the mail "${mail.subject}":\n${mail.text}`);
  return match[1];
}

export function linkInMail(mail: OutboxMail, pathPrefix: string): string {
  const match = new RegExp(`https?://[^\\s]+${pathPrefix.replace(/\//g, "\\/")}[^\\s]+`).exec(mail.text);
  if (!match) throw new Error(`No link to ${pathPrefix} in the mail "${mail.subject}":\n${mail.text}`);
  return match[0];
}

export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

/** Opens `url` and waits for its scripts to run; answers the paths of the requests of `resourceType` it made. */
export async function pathsRequestedOpening(page: Page, url: string, resourceType: "script" | "stylesheet"): Promise<string[]> {
  const paths: string[] = [];
  const collect = (request: Request) => {
    if (request.resourceType() === resourceType) paths.push(new URL(request.url()).pathname);
  };
  page.on("request", collect);
  try {
    await page.goto(url);
    await waitForHydration(page);
  } finally {
    page.off("request", collect);
  }
  return paths;
}

let uniqueCounter = 0;
export function uniqueEmail(label: string): string {
  uniqueCounter += 1;
  return `${label}-${Date.now().toString(36)}-${uniqueCounter}@example.com`;
}

export const strongPassword = "Lake-Geneva-2025!";

/** Signs up through the full page and confirms the address with the code from the outbox: ends on the dashboard. */
export async function signUpAndVerify(page: Page, origin: string, email: string, password = strongPassword): Promise<void> {
  await page.goto(`${origin}/account/signup`);
  await waitForHydration(page);
  await page.locator("main").getByRole("textbox", { name: "Email" }).fill(email);
  await page.locator("main").getByLabel("Password", { exact: true }).fill(password);
  await page.locator("main").getByLabel("Password (again)").fill(password);
  await page.locator("main").getByRole("button", { name: "Sign up" }).click();
  await page.waitForURL(`${origin}/account/verify-email`);
  const code = codeInMail(await waitForMail(origin, email, "Confirm your e-mail address"));
  await page.locator("main").getByRole("textbox", { name: "Code" }).fill(code);
  await page.locator("main").getByRole("button", { name: "Confirm" }).click();
  await page.waitForURL(`${origin}/dashboard`);
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
}

/**
 * Signs up in the open login modal (Continue with email → Sign up) and confirms the address with the mailed code on
 * the verify-email page it hands over to; ends with Confirm pressed, wherever that leads.
 */
export async function signUpInTheLoginModalAndConfirm(page: Page, origin: string, email: string, password = strongPassword): Promise<void> {
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Continue with email" }).click();
  await dialog.getByRole("button", { name: "Sign up" }).click();
  await dialog.getByRole("textbox", { name: "Email" }).fill(email);
  await dialog.getByLabel("Password", { exact: true }).fill(password);
  await dialog.getByLabel("Confirm password").fill(password);
  await dialog.locator("form button[type=submit]").click();
  await page.waitForURL(`${origin}/account/verify-email`);
  const code = codeInMail(await waitForMail(origin, email, "Confirm your e-mail address"));
  await page.locator("main").getByRole("textbox", { name: "Code" }).fill(code);
  await page.locator("main").getByRole("button", { name: "Confirm" }).click();
}

export async function logInWithPassword(page: Page, origin: string, email: string, password = strongPassword): Promise<void> {
  await page.goto(`${origin}/account/login`);
  await waitForHydration(page);
  await page.locator("main").getByRole("textbox", { name: "Email" }).fill(email);
  await page.locator("main").getByLabel("Password").fill(password);
  await page.locator("main").getByRole("button", { name: "Log in", exact: true }).click();
}

export interface TotpCode {
  code: string;
  timeStep: number;
}

/**
 * The code of the authenticator `totp` for the period in which the server will check it: the server accepts the
 * current period only (allauth's tolerance 0), so a code taken in a period's last seconds is taken from the next one.
 */
export async function currentTotpCode(totp: { period: number; generate: (options?: { timestamp?: number }) => string }): Promise<TotpCode> {
  const periodMilliseconds = totp.period * 1000;
  const leftMilliseconds = periodMilliseconds - (Date.now() % periodMilliseconds);
  if (leftMilliseconds < 5_000) await new Promise((resolve) => setTimeout(resolve, leftMilliseconds + 250));
  const timeStep = Math.floor(Date.now() / periodMilliseconds);
  return { code: totp.generate({ timestamp: timeStep * periodMilliseconds }), timeStep };
}

// The server takes each time step's code once: a second code from the same authenticator must come from a later step.
export async function waitForTimeStepAfter(spent: TotpCode, period: number): Promise<void> {
  const periodMilliseconds = period * 1000;
  const nextStepStartsAt = (spent.timeStep + 1) * periodMilliseconds;
  const waitMilliseconds = nextStepStartsAt - Date.now();
  if (waitMilliseconds > 0) await new Promise((resolve) => setTimeout(resolve, waitMilliseconds + 250));
}
