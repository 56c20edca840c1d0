import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateUpTo, migrations, openDatabase } from "@atelier/server";
import SqliteDatabase from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { findFreePort } from "./support/atelier-server.ts";
import { atelierNginxServerBlock } from "./support/nginx.ts";
import { repositoryDirectory, runPnpm } from "./support/pnpm.ts";
import { createSharedPostgresDatabase, postgresTestsEnabled } from "./support/postgres.ts";

const guide = readFileSync(path.join(repositoryDirectory, "docs/deploy.md"), "utf8");

/** The text of the guide's section whose heading starts with `heading`, up to the next section. */
function sectionOf(heading: string): string {
  const start = guide.indexOf(`\n## ${heading}`);
  if (start === -1) throw new Error(`docs/deploy.md has no section "## ${heading}…".`);
  const end = guide.indexOf("\n## ", start + 1);
  return guide.slice(start, end === -1 ? undefined : end);
}

function codeBlocksOf(section: string, language: string): string[] {
  return [...section.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)\\n```", "g"))].map((match) => match[1]!);
}

/** `/etc/atelier/atelier.env` as section 4 prints it: `KEY=value`, a value in double quotes kept whole, comments dropped. */
function readGuideEnvironmentFile(): Record<string, string> {
  const block = codeBlocksOf(sectionOf("4. The settings"), "sh")[0]!;
  const settings: Record<string, string> = {};
  for (const line of block.split("\n")) {
    const match = /^([A-Z][A-Z0-9_]*)=("[^"]*"|\S*)/.exec(line);
    if (match) settings[match[1]!] = match[2]!.replace(/^"(.*)"$/, "$1");
  }
  return settings;
}

/** The `[Service]` lines of section 5's systemd unit: `Environment=` may repeat, so every value is a list. */
function readGuideSystemdService(): Map<string, string[]> {
  const unit = codeBlocksOf(sectionOf("5. The processes"), "ini")[0]!;
  const service = unit.slice(unit.indexOf("[Service]"), unit.indexOf("[Install]"));
  const lines = new Map<string, string[]>();
  for (const line of service.split("\n")) {
    const match = /^(\w+)=(.*)$/.exec(line);
    if (match) lines.set(match[1]!, [...(lines.get(match[1]!) ?? []), match[2]!]);
  }
  return lines;
}

/** What an operator fills in: every value of the printed file that holds "…", by name. */
const placeholderValues: Record<string, string> = {
  SECRET_KEY: "deploy-guide-test-secret-key-of-at-least-32-characters",
  STRIPE_SECRET_KEY: "sk_live_deploy_guide_test",
  STRIPE_WEBHOOK_SECRET: "whsec_deploy_guide_test",
  STRIPE_PRICE_IDS: JSON.stringify({ basic_month: "price_1", basic_year: "price_2", plus_month: "price_3", plus_year: "price_4", studio_month: "price_5", studio_year: "price_6" }),
};

/** This machine's stand-ins for the guide's host paths. */
type HostPaths = { dataDirectory: string; backupDirectory: string };

function onThisMachine(text: string, paths: HostPaths): string {
  return text.replaceAll("/opt/atelier/app", repositoryDirectory).replaceAll("/var/lib/atelier", paths.dataDirectory).replaceAll("/var/backups/atelier", paths.backupDirectory);
}

type ServiceInstance = { url: string; readyBody: unknown; readyHeaders: Headers; output: () => string; stop: () => Promise<number | null> };

/**
 * Starts one `atelier@<port>` instance as systemd would from the guide's unit: the environment file's settings and
 * the unit's `Environment=` lines only (nothing of this test process's environment but PATH), `ExecStart` in
 * `WorkingDirectory`. Resolves once `/readyz` answers 200, as the guide's `curl -fsS …/readyz` checks.
 */
async function startGuideServiceInstance(options: { paths: HostPaths; settings: Record<string, string> }): Promise<ServiceInstance> {
  const service = readGuideSystemdService();
  const port = await findFreePort();
  const unitEnvironment = Object.fromEntries((service.get("Environment") ?? []).map((assignment) => assignment.replace("%i", String(port)).split("=", 2) as [string, string]));
  const [executable, ...commandArguments] = service.get("ExecStart")![0]!.split(/\s+/);
  expect(executable).toBe("/usr/bin/node");
  const child = spawn(process.execPath, commandArguments, {
    cwd: onThisMachine(service.get("WorkingDirectory")![0]!, options.paths),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.settings, ...unitEnvironment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode} before /readyz answered:\n${output}`);
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) {
        const readyBody: unknown = await response.json();
        return {
          url,
          readyBody,
          readyHeaders: response.headers,
          output: () => output,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
            return exited;
          },
        };
      }
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`/readyz did not answer 200 within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** The environment file with the placeholders filled in and the database chosen; fails on a setting the test does not know how to fill. */
function guideSettingsOnThisMachine(paths: HostPaths, database: { databaseUrl: string } | "sqlite"): Record<string, string> {
  const printed = readGuideEnvironmentFile();
  const unfilled = Object.keys(printed).filter((name) => printed[name]!.includes("…") && !(name in placeholderValues));
  expect(unfilled, "a setting of docs/deploy.md's environment file that this test cannot fill in").toEqual([]);
  const settings = Object.fromEntries(Object.entries(printed).map(([name, value]) => [name, placeholderValues[name] ?? onThisMachine(value, paths)]));
  // Section 3: PostgreSQL through DATABASE_URL, or SQLite in DATA_DIR with DATABASE_URL left out.
  if (database === "sqlite") delete settings.DATABASE_URL;
  else settings.DATABASE_URL = database.databaseUrl;
  return settings;
}

function createHostPaths(): HostPaths & { remove: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), "atelier-deploy-guide-"));
  return { dataDirectory: path.join(root, "var-lib-atelier"), backupDirectory: path.join(root, "var-backups-atelier"), remove: () => rmSync(root, { recursive: true, force: true }) };
}

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

  it("should start the unit's instances on the ports nginx's upstream names, and read the environment file the settings section writes", () => {
    const service = readGuideSystemdService();
    expect(service.get("EnvironmentFile")).toEqual(["/etc/atelier/atelier.env"]);
    expect(sectionOf("4. The settings")).toContain("`/etc/atelier/atelier.env`");
    expect(service.get("Environment")).toEqual(["PORT=%i"]);
    expect(codeBlocksOf(sectionOf("5. The processes"), "sh")[0]).toContain("systemctl enable --now atelier@3001 atelier@3002 atelier@3003");
  });

  it.runIf(postgresTestsEnabled)(
    "should start the compiled server with the environment file and the systemd unit on PostgreSQL, ready at /readyz and stopped by SIGTERM with exit code 0",
    async () => {
      const paths = createHostPaths();
      const database = await createSharedPostgresDatabase();
      let instance: ServiceInstance | null = null;
      try {
        instance = await startGuideServiceInstance({ paths, settings: guideSettingsOnThisMachine(paths, { databaseUrl: database.url }) });
        // Section 5's check: `curl -fsS http://127.0.0.1:3001/readyz   # {"status":"ready"}`.
        const printedAnswer = /curl -fsS http:\/\/127\.0\.0\.1:3001\/readyz\s+#\s*(\{.*\})/.exec(sectionOf("5. The processes"))?.[1];
        expect(instance.readyBody).toEqual(JSON.parse(printedAnswer!));
        // Section 4: "With an https:// PUBLIC_ORIGIN … every answer carries HSTS".
        const siteConfig = await fetch(`${instance.url}/site-config`);
        expect(siteConfig.status).toBe(200);
        expect(siteConfig.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
        expect(await instance.stop()).toBe(0);
      } finally {
        await instance?.stop();
        await database.drop();
        paths.remove();
      }
    },
    90_000,
  );

  it("should start the compiled server with the environment file and the systemd unit on SQLite in DATA_DIR, ready at /readyz", async () => {
    const paths = createHostPaths();
    let instance: ServiceInstance | null = null;
    try {
      instance = await startGuideServiceInstance({ paths, settings: guideSettingsOnThisMachine(paths, "sqlite") });
      expect(instance.readyBody).toEqual({ status: "ready" });
      expect(existsSync(path.join(paths.dataDirectory, "atelier.sqlite"))).toBe(true);
      expect(await instance.stop()).toBe(0);
    } finally {
      await instance?.stop();
      paths.remove();
    }
  });

  it(
    "should upgrade a SQLite database of an earlier schema as the Upgrades section does: the backup first, then the new server migrates it and every card and learner's box is still there",
    async () => {
      const paths = createHostPaths();
      let instance: ServiceInstance | null = null;
      try {
        // The database an earlier release left: migrated up to 0007 (before pair confidence and hidden pairs), with data.
        const earlierSchema = "0007-rate-limit-window";
        const opened = openDatabase({ databaseUrl: null, dataDirectory: paths.dataDirectory });
        await migrateUpTo(opened.database, earlierSchema);
        await opened.close();
        const learnerCookie = "upgradeLearnerAbcdefghijklmnop12";
        const createdAt = "2026-01-01T00:00:00.000Z";
        const sqlite = new SqliteDatabase(path.join(paths.dataDirectory, "atelier.sqlite"));
        try {
          sqlite.prepare("INSERT INTO identity_user (id, password_hash, is_active, created_at) VALUES ('upgrade-owner', NULL, 1, ?)").run(createdAt);
          sqlite.prepare("INSERT INTO subtitle_group (id, owner_id, name, is_public, pair_count, alignment_report_json, created_at) VALUES ('upgrade-group', 'upgrade-owner', 'Before the upgrade', 1, 12, '{}', ?)").run(createdAt);
          for (let position = 0; position < 12; position += 1) {
            sqlite.prepare("INSERT INTO subtitle_pair (id, group_id, position, english, swedish) VALUES (?, 'upgrade-group', ?, ?, ?)").run(`upgrade-pair-${position}`, position, `Sentence ${position}.`, `Mening ${position}.`);
          }
          for (const position of [0, 1, 2]) {
            sqlite
              .prepare("INSERT INTO study_progress (learner_key, pair_id, group_id, box, review_count, correct_count, studied_at, last_reviewed_at, due_at, updated_at) VALUES (?, ?, 'upgrade-group', 3, 2, 2, ?, ?, ?, ?)")
              .run(`anonymous:${learnerCookie}`, `upgrade-pair-${position}`, createdAt, createdAt, createdAt, createdAt);
          }
        } finally {
          sqlite.close();
        }

        // Section 8, first line: the backup (SQLite), as printed, on this machine's paths.
        const upgradeCommands = codeBlocksOf(sectionOf("8. Upgrades"), "sh")[0]!;
        const backupLine = upgradeCommands.split("\n").find((line) => line.includes("pnpm backup"));
        // `sudo -u atelier` starts from an empty environment: only the `env` assignments of the line reach pnpm.
        const printedBackup = /^sudo -u atelier (?:env ((?:[A-Z_]+=\S+ )+))?pnpm (backup \S+)/.exec(backupLine ?? "");
        expect(printedBackup, "the Upgrades section's backup line, `sudo -u atelier [env …] pnpm backup <file>`").not.toBeNull();
        const backupEnvironment = Object.fromEntries((printedBackup![1] ?? "").trim().split(" ").filter(Boolean).map((assignment) => onThisMachine(assignment, paths).split("=", 2) as [string, string]));
        const backupArguments = onThisMachine(printedBackup![2]!, paths).split(" ");
        const backup = await runPnpm(backupArguments, { directory: repositoryDirectory, environment: backupEnvironment });
        expect(backup.stdout).toMatch(/^Backed up .* to .*before-upgrade\.sqlite: [\d.]+ MB in \d+ ms\.$/m);
        const backupPath = path.join(paths.backupDirectory, "before-upgrade.sqlite");
        const migrationsIn = (databasePath: string) => {
          const database = new SqliteDatabase(databasePath, { readonly: true });
          try {
            return (database.prepare("SELECT name FROM kysely_migration ORDER BY name").all() as { name: string }[]).map((row) => row.name);
          } finally {
            database.close();
          }
        };
        expect(migrationsIn(backupPath).at(-1)).toBe(earlierSchema);

        // `systemctl restart atelier@$port; …; curl -fsS …/readyz`: the new compiled server migrates at its start.
        expect(upgradeCommands).toMatch(/systemctl restart atelier@\$port; sleep 2; curl -fsS http:\/\/127\.0\.0\.1:\$port\/readyz/);
        instance = await startGuideServiceInstance({ paths, settings: guideSettingsOnThisMachine(paths, "sqlite") });
        expect(instance.readyBody).toEqual({ status: "ready" });
        expect(migrationsIn(path.join(paths.dataDirectory, "atelier.sqlite"))).toEqual(Object.keys(migrations).sort());

        const stats = await fetch(`${instance.url}/api/subtitle-groups/upgrade-group/stats/?page_size=100`, { headers: { cookie: `learner_id=${learnerCookie}` } });
        expect(stats.status).toBe(200);
        const body = (await stats.json()) as { name: string; pairs: { id: string; current_box: number | null; confidence: number }[] };
        expect(body.name).toBe("Before the upgrade");
        expect(body.pairs).toHaveLength(12);
        expect(body.pairs.filter((pair) => pair.current_box === 3).map((pair) => pair.id).sort()).toEqual(["upgrade-pair-0", "upgrade-pair-1", "upgrade-pair-2"]);
        // 0008 gave the pairs stored before it a confidence of 1.
        expect(new Set(body.pairs.map((pair) => pair.confidence))).toEqual(new Set([1]));
        expect(await instance.stop()).toBe(0);
      } finally {
        await instance?.stop();
        paths.remove();
      }
    },
    120_000,
  );
});
