#!/usr/bin/env node
// Makes sure the outside programs the test suite needs are here: Debian's Chromium for the browser tests, faketime for
// the server's clock-ahead run, nginx for the scale-out and proxy tests (run as the test user with its own
// configuration, never as the system service), and a PostgreSQL server for the database tests. Installs them from Debian's packages when running as root, else says how.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createConnection } from "node:net";

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasAptGet = existsSync("/usr/bin/apt-get");
let aptUpdated = false;

function run(command, args) {
  console.info(`$ ${command} ${args.join(" ")}`);
  execFileSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

function aptInstall(packages) {
  if (!isRoot || !hasAptGet) return false;
  if (!aptUpdated) {
    run("apt-get", ["update", "-qq"]);
    aptUpdated = true;
  }
  run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages]);
  return true;
}

function findChromium() {
  return [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => path && existsSync(path));
}

function findFaketime() {
  return ["/usr/bin/faketime", "/usr/local/bin/faketime"].find((path) => existsSync(path));
}

function findNginx() {
  return [process.env.NGINX_PATH, "/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => path && existsSync(path));
}

function canConnect(host, port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.setTimeout(1500);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function startLocalPostgresClusters() {
  if (!existsSync("/etc/postgresql")) return;
  for (const version of readdirSync("/etc/postgresql")) {
    spawnSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"], { stdio: "inherit" });
  }
}

async function ensurePostgres() {
  const url = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");
  const host = url.hostname;
  const port = Number(url.port || 5432);
  if (await canConnect(host, port)) return;
  startLocalPostgresClusters();
  if (await canConnect(host, port)) return;
  if (host !== "127.0.0.1" && host !== "localhost") throw new Error(`PostgreSQL at ${host}:${port} does not answer; start it or set TEST_DATABASE_URL.`);
  if (!aptInstall(["postgresql"])) {
    throw new Error("PostgreSQL does not answer at 127.0.0.1:5432. Install and start it (Debian: apt-get install postgresql), or set TEST_DATABASE_URL.");
  }
  startLocalPostgresClusters();
  // A fresh Debian cluster trusts nobody over TCP: let the local test user in and create the test database.
  const version = readdirSync("/etc/postgresql")[0];
  const hba = `/etc/postgresql/${version}/main/pg_hba.conf`;
  execFileSync("sh", ["-c", `grep -q 'atelier-tests' ${hba} || sed -i '1i host all all 127.0.0.1/32 trust # atelier-tests' ${hba}`]);
  spawnSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "reload"], { stdio: "inherit" });
  spawnSync("su", ["postgres", "-c", "createdb test"], { stdio: "inherit" });
  if (!(await canConnect(host, port))) throw new Error("PostgreSQL was installed but does not answer at 127.0.0.1:5432.");
}

async function main() {
  if (!findChromium()) {
    if (!aptInstall(["chromium", "fonts-dejavu-core"]) || !findChromium()) {
      throw new Error("No Chromium found for the browser tests. Install Debian's package (apt-get install chromium) or set CHROME_PATH.");
    }
  }
  // The server's tests run a second time with the system clock 400 days ahead, so a test that depends on today's date
  // fails the day it is written rather than the day its date passes.
  if (!findFaketime()) {
    if (!aptInstall(["faketime"]) || !findFaketime()) {
      throw new Error("No faketime found for the server's clock-ahead tests. Install Debian's package (apt-get install faketime).");
    }
  }
  // Debian's package starts its own service on port 80; the tests never use it, so it is stopped and left disabled.
  if (!findNginx()) {
    if (!aptInstall(["nginx"])) {
      throw new Error("No nginx found for the scale-out and proxy tests. Install Debian's package (apt-get install nginx) or set NGINX_PATH.");
    }
    spawnSync("sh", ["-c", "systemctl disable --now nginx 2>/dev/null; true"], { stdio: "inherit" });
    if (!findNginx()) throw new Error("nginx was installed but not found at /usr/sbin/nginx; set NGINX_PATH.");
  }
  await ensurePostgres();
  console.info("Test machine ready: Chromium, faketime, nginx and PostgreSQL are here.");
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
