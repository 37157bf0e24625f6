import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { copyFixtures, lastJsonLine } from "./support/consumer-fixtures.js";
import {
  cleanEnvironment,
  type InstalledProject,
  installIntoEmptyProject,
} from "./support/install-tarballs.js";
import { publishedPackages } from "./support/published-packages.js";
import { packedManifest, readTarball } from "./support/read-tarball.js";
import { describeResult, runCommand } from "./support/run-command.js";

// All seven tarballs in one empty project, as `npm i ./reelsmith-*.tgz` does for a user.
// Measured on a 2-core machine: about 6 s with a warm npm cache, 8 s cold (66 MB, most of it
// the ffmpeg and ffprobe builds @reelsmith/media brings), so it runs with every `pnpm test`.

const packages = publishedPackages();
const cli = packages.find((entry) => entry.name === "@reelsmith/cli")!;
let project: InstalledProject;
const entryPoints: string[] = [];

beforeAll(async () => {
  const tarballs = inject("tarballs");
  project = await installIntoEmptyProject([
    ...packages.map((entry) => tarballs[entry.name]!),
    // For the TypeScript consumer below. @types/pg: the declarations of @reelsmith/distributed
    // and of @dbos-inc/dbos-sdk import `pg`'s types, which neither package depends on.
    "@types/node@^20.19.0",
    "@types/pg@^8.15.0",
  ]);
  await copyFixtures("all-packages", project.dir);
  for (const entry of packages) {
    const manifest = packedManifest(await readTarball(tarballs[entry.name]!));
    for (const subpath of Object.keys(manifest.exports ?? {})) {
      if (subpath === "./package.json") continue;
      entryPoints.push(subpath === "." ? entry.name : `${entry.name}/${subpath.slice(2)}`);
    }
  }
});

afterAll(async () => {
  await project?.remove();
});

/**
 * Runs the installed `reelsmith` bin through npx, as a user of the project does; `--no` so
 * that npx never fetches a package of that name from the registry instead.
 */
function reelsmith(...arguments_: string[]) {
  return runCommand("npx", ["--no", "--", "reelsmith", ...arguments_], {
    cwd: project.dir,
    env: cleanEnvironment(),
  });
}

describe("the seven packages installed together from their tarballs", () => {
  it("run `reelsmith --version` through npx", async () => {
    const result = await reelsmith("--version");
    expect(result.code, describeResult(result)).toBe(0);
    expect(result.stdout.trim()).toBe(cli.version);
  });

  it("run `reelsmith validate`: a good file passes, a broken one gets file:line:column and exit 2", async () => {
    const good = await reelsmith("validate", "small.yaml");
    expect(good.code, describeResult(good)).toBe(0);
    expect(good.stdout).toContain("small.yaml: ok");

    const broken = await reelsmith("validate", "broken.yaml");
    expect(broken.code, describeResult(broken)).toBe(2);
    expect(broken.stdout + broken.stderr).toMatch(/broken\.yaml:4:\d+: error: .*`prompt`/);
    expect(broken.stdout + broken.stderr).toMatch(/broken\.yaml:4:\d+: error: .*`modle`/);
    expect(broken.stdout + broken.stderr).toMatch(/broken\.yaml:6:\d+: error: .*missing/);
    expect(broken.stdout + broken.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack trace
  });

  it("run a pipeline offline on the built-in simulator, ffmpeg joining its clip", async () => {
    const result = await reelsmith("run", "small.yaml");
    expect(result.code, describeResult(result)).toBe(0);
    const finalLine = result.stdout.trim().split("\n").at(-1) ?? "";
    const finalVideo = path.resolve(project.dir, finalLine.replace(/^\s*video\s+/, ""));
    expect(path.basename(finalVideo)).toBe("final.mp4");
    const bytes = await readFile(finalVideo);
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const report = await readFile(path.join(path.dirname(finalVideo), "report.html"), "utf8");
    expect(report).toContain("final.mp4");
  });

  it("load every entry point with require() and with import, none with top-level await", async () => {
    expect(entryPoints).toContain("@reelsmith/core");
    expect(entryPoints).toContain("@reelsmith/runner/kinds");
    expect(entryPoints).toContain("@reelsmith/runner/schema.json");
    for (const script of ["load-entries.cjs", "load-entries.mjs"]) {
      const result = await runCommand(process.execPath, [script, ...entryPoints], {
        cwd: project.dir,
        env: cleanEnvironment(),
      });
      expect(result.code, `${script}\n${describeResult(result)}`).toBe(0);
      expect(result.stderr, script).not.toMatch(/ERR_REQUIRE|ExperimentalWarning/);
      const loaded = lastJsonLine<Record<string, number>>(result.stdout);
      expect(Object.keys(loaded).sort(), script).toEqual([...entryPoints].sort());
      for (const [specifier, exportCount] of Object.entries(loaded)) {
        expect(exportCount, `${script}: ${specifier}`).toBeGreaterThan(0);
      }
    }
  });

  it("run a step kind defined against @reelsmith/runner/kinds beside the built-in ones", async () => {
    const result = await runCommand(process.execPath, ["use-kinds.mjs"], {
      cwd: project.dir,
      env: cleanEnvironment(),
    });
    expect(result.code, describeResult(result)).toBe(0);
    const ran = lastJsonLine<{ status: string; outputs: unknown; kinds: string[] }>(result.stdout);
    expect(ran.status).toBe("succeeded");
    expect(ran.outputs).toEqual({ text: "A PAPER BOAT" });
    expect(ran.kinds).toContain("chat");
    expect(ran.kinds.at(-1)).toBe("shout");
  });

  it("typecheck a TypeScript program that imports every entry point (.mts) and requires them (.cts)", async () => {
    const modules = entryPoints.filter((specifier) => !specifier.endsWith(".json"));
    const imports = modules.map((specifier, index) => `import * as m${index} from "${specifier}";`);
    const requires = modules.map(
      (specifier, index) => `import m${index} = require("${specifier}");`,
    );
    const kinds = `m${modules.indexOf("@reelsmith/runner/kinds")}`;
    const uses = [
      `export const client: m0.ReelsmithClient = m0.createClient({ baseURL: "http://127.0.0.1:1", apiKey: "k" });`,
      // A kind's author names the kind's types and the built-in kinds from the kinds entry point.
      `export const author: ${kinds}.StepKindSpec<{ text: string }>["kind"] = "shout";`,
      `export const kindNames: string[] = [...${kinds}.kindsByName(${kinds}.builtInStepKinds).keys()];`,
      `export type Loaded = [${modules.map((_, index) => `typeof m${index}`).join(", ")}];`,
    ];
    expect(modules[0]).toBe("@reelsmith/core");
    expect(modules).toContain("@reelsmith/runner/kinds");
    await writeFile(path.join(project.dir, "consumer.mts"), [...imports, ...uses, ""].join("\n"));
    await writeFile(path.join(project.dir, "consumer.cts"), [...requires, ...uses, ""].join("\n"));
    await writeFile(
      path.join(project.dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          target: "es2022",
          strict: true,
          noEmit: true,
          skipLibCheck: false, // the packages' declarations are checked too
          types: ["node"],
        },
        files: ["consumer.mts", "consumer.cts"],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const result = await runCommand(process.execPath, [tsc, "-p", "tsconfig.json"], {
      cwd: project.dir,
      env: cleanEnvironment(),
    });
    expect(result.code, describeResult(result)).toBe(0);
  });
});
