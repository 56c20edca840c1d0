import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findInlineScriptHashes } from "./inline-script-hashes.ts";

const sha256 = (text: string) => `sha256-${createHash("sha256").update(text).digest("base64")}`;

describe("given an HTML page with inline and external scripts", () => {
  const html = `<html><head><script type="module" src="/assets/entry.js"></script><script>window.__theme="dark";</script></head>
<body><script type="module">import "/assets/app.js";</script><script></script></body></html>`;

  it("should hash each inline script's exact content and skip external and empty ones", () => {
    expect(findInlineScriptHashes(html)).toEqual([sha256('window.__theme="dark";'), sha256('import "/assets/app.js";')]);
  });
});
