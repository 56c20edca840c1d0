import { createServer, type AddressInfo, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { findFreePort, startAtelierServer, type RunningAtelierServer } from "./spawn-atelier-server.ts";

/** A port held by another program, which accepts connections and closes them without a word. */
async function holdAPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const holder: Server = createServer((socket) => socket.destroy()).listen(0, "127.0.0.1");
  await new Promise((resolve) => holder.once("listening", resolve));
  return { port: (holder.address() as AddressInfo).port, release: () => new Promise((resolve) => holder.close(() => resolve())) };
}

const started: RunningAtelierServer[] = [];
const held: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
  await Promise.all(held.splice(0).map((release) => release()));
});

describe("given a port found free that another program takes before the server listens", () => {
  it("should start the server on another port", async () => {
    const taken = await holdAPort();
    held.push(taken.release);
    const portsFound: number[] = [];
    const server = await startAtelierServer({
      environment: { LOG_LEVEL: "warn" },
      findPort: async () => {
        const port = portsFound.length === 0 ? taken.port : await findFreePort();
        portsFound.push(port);
        return port;
      },
    });
    started.push(server);

    expect(portsFound).toHaveLength(2);
    expect(server.port).toBe(portsFound[1]);
    expect(server.port).not.toBe(taken.port);
    expect((await fetch(`${server.url}/site-config`)).status).toBe(200);
  }, 60_000);
});

describe("given a port the caller chose that another program holds", () => {
  it("should refuse to start, saying the address is in use, without trying another port", async () => {
    const taken = await holdAPort();
    held.push(taken.release);

    await expect(startAtelierServer({ port: taken.port, environment: { LOG_LEVEL: "warn" } })).rejects.toThrow(/EADDRINUSE/u);
  }, 60_000);
});
