import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { atelierNginxServerBlock } from "./support/nginx.ts";

const guide = readFileSync(path.resolve(import.meta.dirname, "../../../docs/deploy.md"), "utf8");

describe("given the deployment guide", () => {
  it("should print the nginx upstream and server blocks the scale-out and TLS tests run", () => {
    const nginxBlock = /```nginx\n([\s\S]*?)\n```/.exec(guide)?.[1];
    expect(nginxBlock).toBeDefined();
    const tested = atelierNginxServerBlock({
      listen: "443",
      upstreamPorts: [3001, 3002, 3003],
      tls: { certificatePath: "/etc/letsencrypt/live/atelier.example/fullchain.pem", keyPath: "/etc/letsencrypt/live/atelier.example/privkey.pem" },
    });
    expect(nginxBlock!.startsWith(tested)).toBe(true);
  });

  it("should back up and restore with the commands and settings the backup tests run", () => {
    expect(guide).toContain("pnpm backup /var/backups/atelier/");
    expect(guide).toContain("pnpm restore /var/backups/atelier/atelier-….sqlite --replace");
    expect(guide).toContain("pg_dump --format=custom --file=");
    expect(guide).toContain("pg_restore --no-owner --role=atelier --dbname=atelier_restored");
    expect(guide).toContain("TRUST_PROXY=true");
  });
});
