import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { findFreePort } from "./spawn-atelier-server.ts";

/** Debian's nginx binary: `NGINX_PATH`, else /usr/sbin/nginx (`node tooling/scripts/ensure-test-machine.mjs` installs it). */
export function findNginx(): string {
  const candidates = [process.env.NGINX_PATH, "/usr/sbin/nginx", "/usr/bin/nginx"];
  const found = candidates.find((candidate): candidate is string => candidate !== undefined && candidate !== "" && existsSync(candidate));
  if (!found) throw new Error("nginx was not found: run `node tooling/scripts/ensure-test-machine.mjs` as root (it installs Debian's package), or set NGINX_PATH.");
  return found;
}

export type NginxTls = { certificatePath: string; keyPath: string };

export type RunningNginx = {
  /** Where requests go: `http(s)://127.0.0.1:PORT`. */
  url: string;
  /** The public origin every server process is given: `http(s)://localhost:PORT`. */
  origin: string;
  port: number;
  /** The configuration file, as docs/deploy.md describes it. */
  configurationPath: string;
  errorLog: () => string;
  stop: () => Promise<void>;
};

/**
 * The part of the configuration that docs/deploy.md prints (a test holds the two equal): one upstream of the Atelier processes, a retry on the
 * next process for connections that fail (never for a POST that was sent: it may have been saved) and for requests a draining process
 * answered 503 without running them, kept-alive connections, and the client's address appended to X-Forwarded-For (the server reads the
 * last entry when TRUST_PROXY is on).
 */
export function atelierNginxServerBlock(options: { listen: string; upstreamPorts: readonly number[]; tls?: NginxTls }): string {
  const servers = options.upstreamPorts.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`).join("\n");
  const tls = options.tls
    ? `
    ssl_certificate ${options.tls.certificatePath};
    ssl_certificate_key ${options.tls.keyPath};
    ssl_protocols TLSv1.2 TLSv1.3;`
    : "";
  const proxyHeaders = `proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;`;
  return `  upstream atelier {
    # Shared by nginx's workers: a process that answered a draining 503 is left alone by all of them for 2 s.
    zone atelier 64k;
${servers}
    # Kept-alive connections: few new connections. Closed by nginx after 60 s idle, before the server's own 65 s, so
    # never while nginx sends on one.
    keepalive 256;
    keepalive_timeout 60s;
  }

  server {
    listen ${options.listen}${options.tls ? " ssl" : ""};${tls}
    # The subtitle upload is the largest request; the server refuses one over 11 MB with a sentence of its own.
    client_max_body_size 12m;

    location / {
      proxy_pass http://atelier;
      ${proxyHeaders}
      # A connection that fails goes to the next process, but never a POST already sent: it may have been saved.
      # A process shutting down answers 503 (X-Atelier-Draining) to what it did not run: a GET goes on to the next
      # process here, and the process counts as failed for 2 s; a POST is sent on once more below.
      proxy_next_upstream error timeout http_503;
      proxy_next_upstream_tries 3;
      proxy_intercept_errors on;
      error_page 503 = @atelier_not_run;
    }

    # Only 503s are sent on from here, POSTs included: a process answers 503 only to a request it did not run (shutting
    # down, or its database away), so no request runs twice.
    location @atelier_not_run {
      proxy_pass http://atelier;
      ${proxyHeaders}
      proxy_next_upstream http_503 non_idempotent;
      proxy_next_upstream_tries 3;
    }
  }`;
}

/**
 * Runs nginx as the current user, in the foreground, with its own prefix, configuration, pid file and logs in a
 * temporary folder, listening on a free loopback port: the machine's nginx service (if any) is never touched.
 *
 * @example
 * const proxy = await startNginx({ upstreamPorts: [3001, 3002, 3003] });
 */
export async function startNginx(options: { upstreamPorts: readonly number[]; tls?: NginxTls; port?: number }): Promise<RunningNginx> {
  const binary = findNginx();
  const port = options.port ?? (await findFreePort());
  const prefix = mkdtempSync(path.join(tmpdir(), "atelier-nginx-"));
  for (const folder of ["logs", "client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(prefix, folder));
  const isRoot = process.getuid?.() === 0;
  const configurationPath = path.join(prefix, "nginx.conf");
  writeFileSync(
    configurationPath,
    `# Written by apps/resilience for one test run.
${isRoot ? `user ${userInfo().username};\n` : ""}worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;

${atelierNginxServerBlock({ listen: `127.0.0.1:${port}`, upstreamPorts: options.upstreamPorts, tls: options.tls })}
}
`,
  );
  const child: ChildProcess = spawn(binary, ["-p", prefix, "-c", configurationPath, "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const scheme = options.tls ? "https" : "http";
  const errorLog = () => {
    const file = path.join(prefix, "logs", "error.log");
    return existsSync(file) ? readFileSync(file, "utf8") : "";
  };

  const deadline = Date.now() + 10_000;
  while (!(await isListening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      rmSync(prefix, { recursive: true, force: true });
      throw new Error(`nginx did not start on port ${port}:\n${output}\n${errorLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    origin: `${scheme}://localhost:${port}`,
    port,
    configurationPath,
    errorLog,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        // SIGQUIT is nginx's graceful stop.
        child.kill("SIGQUIT");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGKILL");
          await exited;
        }
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

async function isListening(port: number): Promise<boolean> {
  const { createConnection } = await import("node:net");
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}


/**
 * A self-signed certificate for `localhost`, valid two days, made with openssl as docs/deploy.md shows for a test
 * host (a real host gets one from Let's Encrypt). `remove()` deletes the folder.
 */
export function createSelfSignedCertificate(): { certificatePath: string; keyPath: string; remove: () => void } {
  const folder = mkdtempSync(path.join(tmpdir(), "atelier-tls-"));
  const certificatePath = path.join(folder, "localhost.crt");
  const keyPath = path.join(folder, "localhost.key");
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", keyPath, "-out", certificatePath], { stdio: "ignore" });
  return { certificatePath, keyPath, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
