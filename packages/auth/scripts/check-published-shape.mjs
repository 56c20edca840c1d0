// Checks the package as a user installs it: packed by pnpm, which swaps publishConfig.exports (dist) in for the
// source exports the workspace uses. `attw --pack` would run npm pack, which ignores publishConfig.exports, so
// the tarball is made here and both tools read it. Neither reaches the network.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), "..");
const binDirectory = join(packageDirectory, "node_modules", ".bin");
const pnpmRunningThisScript = /pnpm/.test(process.env.npm_execpath ?? "") ? process.env.npm_execpath : undefined;
const packDirectory = mkdtempSync(join(tmpdir(), "atelier-auth-pack-"));

function run(command, args) {
  execFileSync(command, args, { cwd: packageDirectory, stdio: "inherit" });
}

try {
  if (pnpmRunningThisScript) {
    run(process.execPath, [pnpmRunningThisScript, "pack", "--pack-destination", packDirectory]);
  } else {
    run("pnpm", ["pack", "--pack-destination", packDirectory]);
  }
  const tarballs = readdirSync(packDirectory).filter((name) => name.endsWith(".tgz"));
  if (tarballs.length !== 1) throw new Error(`Expected one tarball in ${packDirectory}, found ${tarballs.length}.`);
  const tarball = join(packDirectory, tarballs[0]);

  run(join(binDirectory, "publint"), ["run", tarball, "--strict"]);
  // ESM only: the package has no CommonJS build, so require() from node10 or node16-cjs is not a promise it makes.
  run(join(binDirectory, "attw"), [tarball, "--profile", "esm-only", "--no-definitely-typed"]);
} finally {
  rmSync(packDirectory, { recursive: true, force: true });
}
