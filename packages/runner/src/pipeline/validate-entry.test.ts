import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// `@reelsmith/runner/validate` is what the CLI's `validate` imports: it must reach a verdict
// without loading the TypeBox builders (hundreds of ES modules at start-up). The built
// module runs in a child process whose module hook lists every module it loads.
const run = promisify(execFile);
const entry = new URL("../../dist/pipeline/validate-entry.js", import.meta.url).href;
const bundle = new URL("../../dist/pipeline/validate-bundle.js", import.meta.url).href;
const everything = new URL("./__fixtures__/valid/everything.yaml", import.meta.url).pathname;
const hook = `data:text/javascript,${encodeURIComponent(`
import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(
  'export async function load(url, context, next) { process.stderr.write("LOADED " + url + "\\\\n"); return next(url, context); }'
));`)}`;

async function loadedWhileValidating(
  script: string,
  module = entry,
): Promise<{ out: string; loaded: string[] }> {
  const { stdout, stderr } = await run(process.execPath, [
    "--import",
    hook,
    "--input-type=module",
    "-e",
    `const v = await import(${JSON.stringify(module)}); ${script}`,
  ]);
  const loaded = stderr
    .split("\n")
    .filter((line) => line.startsWith("LOADED "))
    .map((line) => line.slice("LOADED ".length));
  return { out: stdout.trim(), loaded };
}

describe("@reelsmith/runner/validate", () => {
  it("validates a pipeline of the built-in kinds without loading TypeBox", async () => {
    const { out, loaded } = await loadedWhileValidating(
      `const r = await v.validatePipeline(${JSON.stringify(everything)}); console.log(r.pipeline ? "valid" : JSON.stringify(r.diagnostics));`,
    );
    expect(out).toBe("valid");
    expect(loaded.some((url) => url.includes("/runner/dist/pipeline/validate-pipeline.js"))).toBe(
      true,
    );
    expect(loaded.filter((url) => /typebox|pipeline-schema|-schema\.js/.test(url))).toEqual([]);
    // Nor the code that runs steps (the service client, ffmpeg).
    expect(loaded.filter((url) => /-step\.js|undici|\/media\//.test(url))).toEqual([]);
  });

  it("is also one bundled module (what the package exports) that validates alike and loads nothing else of the runner", async () => {
    const { out, loaded } = await loadedWhileValidating(
      `const r = await v.validatePipeline(${JSON.stringify(everything)}); const bad = await v.validatePipeline(v.objectSource({ name: "x", steps: [{ id: "a", chat: { model: "m", prompt: 1 } }] })); console.log(r.pipeline ? "valid" : "invalid", bad.diagnostics.map((d) => d.message).join("; "));`,
      bundle,
    );
    expect(out).toBe("valid `prompt` must be a string, got number 1");
    expect(
      loaded.filter((url) => /\/runner\/dist\//.test(url) && !url.endsWith("validate-bundle.js")),
    ).toEqual([]);
    expect(loaded.filter((url) => /typebox|undici|\/media\//.test(url))).toEqual([]);
  });

  it("loads TypeBox only when custom step kinds need their schemas composed", async () => {
    const { out, loaded } = await loadedWhileValidating(
      `const { Type } = await import("@sinclair/typebox"); const k = await import(${JSON.stringify(new URL("../../dist/steps/registry.js", import.meta.url).href)});
       const echo = { kind: "echo", schema: Type.Object({ text: Type.String() }, { additionalProperties: false }), run: async () => ({}) };
       const r = await v.validatePipeline(v.objectSource({ name: "e", steps: [{ id: "a", echo: { text: 1 } }] }), { stepKinds: [...k.builtInStepKinds, echo] });
       console.log(r.diagnostics.map((d) => d.message).join("; "));`,
    );
    expect(out).toBe("`text` must be a string, got number 1");
    expect(loaded.some((url) => url.endsWith("/dist/pipeline/pipeline-schema.js"))).toBe(true);
  });
});

describe("a run", () => {
  it("loads no TypeBox: neither the runner's root nor the code each built-in kind runs", async () => {
    const steps = ["approve", "chat", "ffmpeg", "image", "speech", "video"].map(
      (kind) => new URL(`../../dist/steps/${kind}/${kind}-step.js`, import.meta.url).href,
    );
    const { out, loaded } = await loadedWhileValidating(
      `for (const step of ${JSON.stringify(steps)}) await import(step); console.log(typeof v.runPipeline);`,
      new URL("../../dist/index.js", import.meta.url).href,
    );
    expect(out).toBe("function");
    expect(loaded.filter((url) => /ffmpeg-step\.js$/.test(url))).toHaveLength(1);
    // Nor the runner's schema modules (core's JSON schemas are plain objects).
    expect(loaded.filter((url) => /typebox|\/runner\/dist\/.*-schema\.js/.test(url))).toEqual([]);
  });
});
