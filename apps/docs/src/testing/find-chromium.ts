import { existsSync } from "node:fs";

/** Debian's Chromium, as the browser tests use it; the stories' tests never download a browser of their own. */
export function findChromiumExecutable(): string {
  const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].filter(Boolean) as string[];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error("No Chromium found for the Storybook tests: install Debian's package (apt-get install -y chromium) or set CHROME_PATH.");
  return found;
}
