import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, tempDir } from "./helpers/cli-process.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CLI_PACKAGE = fileURLToPath(new URL("../", import.meta.url));

/** The `n`th ```ts block of the README's section `heading`. */
async function readmeSnippet(heading: string, n = 0): Promise<string> {
  const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((part) => part.startsWith(heading));
  const blocks = [...(section ?? "").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  const block = blocks[n];
  if (!block) throw new Error(`no ts block ${n} under "## ${heading}" in README.md`);
  return block;
}

let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ timeScale: 0.05 });
});
afterAll(async () => {
  await simulator?.close();
});

describe("the README's library snippet", () => {
  it("runs as written against the simulator: typed scenes with descriptions, a clip on disk", async () => {
    const source = await readmeSnippet("Use as a library");
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    // Beside the cli package, so that `@reelsmith/core` resolves as in a project that has it.
    const holder = await mkdtemp(path.join(CLI_PACKAGE, ".readme-snippet-"));
    const work = await tempDir();
    try {
      const file = path.join(holder, "snippet.mjs");
      await writeFile(file, outputText);
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
        (resolve) => {
          const child = spawn(process.execPath, [file], {
            cwd: work.dir,
            env: cleanEnv({
              REELSMITH_BASE_URL: simulator.url,
              REELSMITH_API_KEY: simulator.apiKey,
            }),
          });
          let stdout = "";
          let stderr = "";
          child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
          child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
          child.on("close", (code) => resolve({ code, stdout, stderr }));
        },
      );
      expect(result.code, result.stderr).toBe(0);
      // What the snippet prints: each scene's description, a string (as its type says).
      expect(result.stdout).toMatch(/^\[\s*'[^']+'/);
      expect(result.stdout).toContain("fox");
      expect(existsSync(path.join(work.dir, "fox.mp4"))).toBe(true);
    } finally {
      await rm(holder, { recursive: true, force: true });
      await work.remove();
    }
  });
});
