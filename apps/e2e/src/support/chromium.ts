import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium; tests never download a browser of their own. */
export function findChromiumExecutable(): string {
  const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].filter(Boolean) as string[];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error("No Chromium found: install Debian's package (apt-get install -y chromium) or set CHROME_PATH.");
  return found;
}

/** The flags that keep Chromium quiet on a machine without outside network. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromiumExecutable(), headless: true, args: CHROMIUM_FLAGS });
}
