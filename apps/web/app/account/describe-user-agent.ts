const browserPatterns: ReadonlyArray<readonly [name: string, pattern: RegExp]> = [
  ["Edge", /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ["Opera", /\b(?:OPR|Opera)\/(\d+)/],
  ["Samsung Internet", /\bSamsungBrowser\/(\d+)/],
  ["Firefox", /\b(?:Firefox|FxiOS)\/(\d+)/],
  ["Chrome", /\b(?:Chrome|CriOS|HeadlessChrome|Chromium)\/(\d+)/],
  ["Safari", /\bVersion\/(\d+)(?:\.\d+)*(?: Mobile\/\w+)? Safari\//],
];

const systemPatterns: ReadonlyArray<readonly [name: string, pattern: RegExp]> = [
  ["iPhone", /\biPhone\b/],
  ["iPad", /\biPad\b/],
  ["Android", /\bAndroid\b/],
  ["Windows", /\bWindows\b/],
  ["macOS", /\bMac OS X\b|\bMacintosh\b/],
  ["ChromeOS", /\bCrOS\b/],
  ["Linux", /\bLinux\b/],
];

/**
 * A person's words for a User-Agent string: "Firefox 133 on Windows", "Safari 18 on iPhone". Falls back to the raw
 * string, cut to 60 characters, when nothing is recognised (an app, a script).
 *
 * @example
 * describeUserAgent("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36") // "Chrome 156 on Linux"
 */
export function describeUserAgent(userAgent: string): string {
  const browser = browserPatterns.map(([name, pattern]) => [name, pattern.exec(userAgent)?.[1]] as const).find(([, version]) => version !== undefined);
  const system = systemPatterns.find(([, pattern]) => pattern.test(userAgent))?.[0];
  if (!browser) return userAgent.trim() === "" ? "Unknown browser" : userAgent.length > 60 ? `${userAgent.slice(0, 59)}…` : userAgent;
  const [browserName, version] = browser;
  return system ? `${browserName} ${version} on ${system}` : `${browserName} ${version}`;
}
