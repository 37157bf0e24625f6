import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { packPackage } from "./pack.js";
import { publishedPackages } from "./published-packages.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Tarball path of every published package, by npm name, packed once for all test files. */
    tarballs: Record<string, string>;
  }
}

/** Packs every published package once, before any test file runs, and removes them after. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const destination = await mkdtemp(path.join(tmpdir(), "reelsmith-tarballs-"));
  const tarballs: Record<string, string> = {};
  // One at a time: pnpm pack is quick, and the machine may be busy with other work.
  for (const entry of publishedPackages()) {
    tarballs[entry.name] = await packPackage(entry, destination);
  }
  project.provide("tarballs", tarballs);
  return async () => {
    await rm(destination, { recursive: true, force: true });
  };
}
