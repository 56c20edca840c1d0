// Runs autocannon in its own process (started by measure-throughput.ts) so the load does not share the server's
// thread. Reads a ThroughputRequest as JSON on stdin and prints { requestsPerSecond, requests, non2xx, errors } as JSON.
import { createRequire } from "node:module";
import { text } from "node:stream/consumers";

interface RunnerRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Paths to cycle through, one per request, instead of the URL's own path. */
  paths?: string[];
  seconds: number;
  connections: number;
}

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
}) => Promise<{ requests: { average: number; total: number }; non2xx: number; errors: number }>;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
const request = JSON.parse(await text(process.stdin)) as RunnerRequest;
let nextPath = 0;
const paths = request.paths;
const result = await autocannon({
  url: request.url,
  connections: request.connections,
  duration: request.seconds,
  method: request.method,
  headers: request.headers,
  body: request.body,
  requests:
    paths === undefined || paths.length === 0
      ? undefined
      : [{ method: request.method, headers: request.headers, body: request.body, setupRequest: (raw) => ({ ...raw, path: paths[nextPath++ % paths.length] }) }],
});
process.stdout.write(JSON.stringify({ requestsPerSecond: result.requests.average, requests: result.requests.total, non2xx: result.non2xx, errors: result.errors }));
