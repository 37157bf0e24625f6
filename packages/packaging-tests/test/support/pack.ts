import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { PublishedPackage } from "./published-packages.js";
import { workspaceRoot } from "./published-packages.js";

const run = promisify(execFile);

/**
 * How to start pnpm: the pnpm running this test (`pnpm test` sets `npm_execpath`), else the
 * version pinned in the root package.json's `packageManager`, through npx.
 */
function pnpmCommand(): { file: string; prefix: string[] } {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/i.test(path.basename(execPath))) {
    return { file: process.execPath, prefix: [execPath] };
  }
  const root = JSON.parse(readFileSync(path.join(workspaceRoot, "package.json"), "utf8")) as {
    packageManager?: string;
  };
  const pinned = root.packageManager ?? "pnpm@10";
  return { file: "npx", prefix: ["-y", pinned] };
}

/**
 * Packs a built package with `pnpm pack` (which turns `workspace:` specifiers into versions)
 * into `destination` and returns the tarball's path.
 *
 * @example
 * const tarball = await packPackage(core, "/tmp/tarballs"); // "/tmp/tarballs/reelsmith-core-0.1.0.tgz"
 */
export async function packPackage(entry: PublishedPackage, destination: string): Promise<string> {
  if (!existsSync(path.join(entry.dir, "dist"))) {
    throw new Error(
      `${entry.name} has no dist/ folder: build the workspace first (pnpm build), then run these tests`,
    );
  }
  const pnpm = pnpmCommand();
  const { stdout } = await run(
    pnpm.file,
    [...pnpm.prefix, "pack", "--json", "--pack-destination", destination],
    { cwd: entry.dir, maxBuffer: 64 * 1024 * 1024 },
  );
  // pnpm prints the JSON summary last; anything before it (npx notices) is not ours.
  const summary = JSON.parse(stdout.slice(stdout.indexOf("{"))) as { filename: string };
  return path.resolve(destination, summary.filename);
}
