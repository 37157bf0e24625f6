import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { publishedPackages } from "./support/published-packages.js";
import { packedManifest, readTarball } from "./support/read-tarball.js";
import { describeResult, runCommand } from "./support/run-command.js";

const require = createRequire(import.meta.url);
const attwManifest = require.resolve("@arethetypeswrong/cli/package.json");
const attwBin = path.join(
  path.dirname(attwManifest),
  (require(attwManifest) as { bin: { attw: string } }).bin.attw,
);

interface AttwProblem {
  kind: string;
  entrypoint?: string;
  resolutionKind?: string;
}

/**
 * The packages are ES modules for Node >= 20.19, so two of attw's findings are deliberate:
 * - `node10` resolution (TypeScript's legacy `moduleResolution: node`) predates `exports` and
 *   cannot see subpaths such as `@reelsmith/core/catalog`; `--profile node16` leaves it out.
 * - `cjs-resolves-to-esm`: attw (on TypeScript 5.6) says a `require()` of ESM fails, but Node
 *   >= 20.19 requires ES modules without top-level await, and TypeScript >= 5.8 types such a
 *   `require()` under `module: node20`/`nodenext`. installed-together.test.ts proves both on
 *   the installed tarballs (a .cjs file requiring every entry point, a .cts file typechecked).
 * Every other problem, in every other resolution mode, fails the test.
 */
const profile = ["--profile", "node16", "--ignore-rules", "cjs-resolves-to-esm"];
const deliberate = (problem: AttwProblem) =>
  problem.resolutionKind === "node10" || problem.kind === "CJSResolvesToESM";

describe.each(publishedPackages())("are-the-types-wrong on the packed $name", (entry) => {
  it("resolves types for every entry point under node16 (ESM and CJS) and bundlers", async () => {
    const tarball = inject("tarballs")[entry.name]!;
    const result = await runCommand(
      process.execPath,
      [attwBin, tarball, ...profile, "--format", "json"],
      { cwd: path.dirname(tarball) },
    );
    expect(result.code, describeResult(result)).toBe(0);
    const report = JSON.parse(result.stdout) as {
      analysis: { entrypoints: Record<string, unknown>; problems: AttwProblem[] };
    };
    expect(report.analysis.problems.filter((problem) => !deliberate(problem))).toEqual([]);
    // attw found every entry point the package exports, so none went unchecked.
    const manifest = packedManifest(await readTarball(tarball));
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(
      Object.keys(manifest.exports ?? {}).sort(),
    );
  });
});
