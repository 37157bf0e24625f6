import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, cleanEnv, EXAMPLES } from "./helpers/cli-process.js";

// A module loader hook (public node:module API) that prints every module the process loads.
const hook = `data:text/javascript,${encodeURIComponent(
  'export async function resolve(s, c, next) { const r = await next(s, c); process._rawDebug("LOADED " + r.url); return r; }',
)}`;
const register = `data:text/javascript,${encodeURIComponent(
  `import { register } from "node:module"; register(${JSON.stringify(hook)});`,
)}`;

/** The modules `reelsmith ARGS` loads, as URLs. */
function loadedBy(args: string[]): string[] {
  const result = spawnSync(process.execPath, ["--import", register, CLI, ...args], {
    env: cleanEnv(),
    encoding: "utf8",
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stderr
    .split("\n")
    .filter((line) => line.startsWith("LOADED "))
    .map((line) => line.slice("LOADED ".length));
}

// Start-up time is measured by `pnpm bench` (P6); this keeps the heavy modules out of it.
describe("start-up imports", () => {
  it("--version loads no runner, client, media, simulator, yaml or schema library", () => {
    const loaded = loadedBy(["--version"]);
    expect(loaded.some((url) => url.includes("commander"))).toBe(true);
    const heavy = loaded.filter((url) =>
      /packages\/(runner\/dist\/(index|pipeline|executor)|core\/dist\/index|media|simulator)\/?|undici|@sinclair|\/yaml\/|\/ajv\//.test(
        url,
      ),
    );
    expect(heavy).toEqual([]);
    // The CLI's own modules and core's errors and catalog come as one bundled module
    // (scripts/bundle-start.mjs), its shared chunk aside.
    const files = loaded
      .filter((url) => url.startsWith("file:") && !url.includes("node_modules"))
      .map((url) => url.replace(/^.*\/packages\//, ""));
    expect(files.filter((file) => !/^cli\/dist\/start-chunk-\w+\.js$/.test(file))).toEqual([
      "cli/dist/bin.js",
      "cli/dist/start-bundle.js",
    ]);
  });

  it("validate loads the runner's pipeline side only: no HTTP client, media, simulator server, TypeBox or ajv compiler", () => {
    const loaded = loadedBy(["validate", path.join(EXAMPLES, "storyboard", "pipeline.yaml")]);
    // The runner's validation as one bundled module.
    expect(loaded.some((url) => url.includes("runner/dist/pipeline/validate-bundle.js"))).toBe(
      true,
    );
    // The built-in simulator's model lists (constants: chat, video, and image/speech/transcription)
    // are read, not its server: a chunk of the CLI's start-up bundle, like the profile finder.
    expect(loaded.some((url) => /cli\/dist\/start-catalog-entry-\w+\.js$/.test(url))).toBe(true);
    expect(loaded.some((url) => /cli\/dist\/start-profile-\w+\.js$/.test(url))).toBe(true);
    expect(loaded.filter((url) => /packages\/(core|simulator)\/dist\//.test(url))).toEqual([]);
    const heavy = loaded.filter(
      (url) =>
        /packages\/(core\/dist\/index|media|simulator)\/|packages\/runner\/dist\/index|undici|@sinclair|typebox|ajv\/dist\/(ajv|core|compile)/.test(
          url,
        ) &&
        !/simulator\/dist\/(catalog-entry|catalog\/(chat-models|video-models|media-models|model-catalogs))\.js/.test(
          url,
        ),
    );
    expect(heavy).toEqual([]);
  });
});
