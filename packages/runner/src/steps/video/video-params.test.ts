import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { solidPng } from "../../../test/helpers/png.js";
import { cacheKey } from "../../cache/cache-key.js";
import type { VideoModelCatalog } from "../../pipeline/core-shim.js";
import { loadPipeline, validatePipeline } from "../../pipeline/validate-pipeline.js";
import { planPipeline } from "../../plan/plan-pipeline.js";
import { videoKind } from "./index.js";
import { isImageParam, looksLikeImage, paramFiles } from "./video-params.js";
import { requestParams } from "./video-request-params.js";

const catalog: VideoModelCatalog = [
  {
    id: "veo-3-fast",
    seconds: { min: 1, max: 8 },
    params: {
      seed: { type: "integer" },
      negative_prompt: { type: "string" },
      aspect_ratio: { type: "string", enum: ["16:9", "9:16"] },
      guidance: { type: "number", minimum: 0, maximum: 10 },
      last_frame: { type: "image" },
    },
  },
  { id: "open-model", seconds: { min: 1, max: 8 } },
];

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "reelsmith-params-"));
  mkdirSync(join(dir, "frames"));
  writeFileSync(join(dir, "frames", "end.png"), solidPng(32, 18, [10, 20, 30]));
  writeFileSync(join(dir, "frames", "notes.png"), "not an image");
  return dir;
}

async function problems(dir: string, source: string) {
  const { diagnostics } = await validatePipeline(
    { source, path: join(dir, "pipeline.yaml") },
    { catalogs: { video_models: catalog } },
  );
  return diagnostics.map((d) => ({
    at: `${d.line}:${d.column}`,
    severity: d.severity,
    code: d.code,
    message: d.message,
    ...(d.hint ? { hint: d.hint } : {}),
  }));
}

describe("video params: static checks against the model's declared parameters", () => {
  it("refuses a wrong type, an undeclared name, a value outside the set and out of range, each where it is written", async () => {
    const dir = project();
    const found = await problems(
      dir,
      [
        "name: params",
        "steps:",
        "  - id: clip",
        "    video:",
        "      model: veo-3-fast",
        "      prompt: a fox",
        "      params:",
        '        seed: "7"',
        "        motion: high",
        "        negative_promt: blurry",
        '        aspect_ratio: "4:3"',
        "        guidance: 12",
        "",
      ].join("\n"),
    );
    expect(found).toEqual([
      {
        at: "8:15",
        severity: "error",
        code: "video_param_invalid",
        message: '`params.seed` must be an integer for veo-3-fast; got "7"',
      },
      {
        at: "9:17",
        severity: "error",
        code: "video_param_unknown",
        message:
          "`params.motion` is not a parameter of veo-3-fast (it takes seed, negative_prompt, aspect_ratio, guidance, last_frame)",
      },
      {
        at: "10:25",
        severity: "error",
        code: "video_param_unknown",
        message:
          "`params.negative_promt` is not a parameter of veo-3-fast (it takes seed, negative_prompt, aspect_ratio, guidance, last_frame)",
        hint: "did you mean `negative_prompt`?",
      },
      {
        at: "11:23",
        severity: "error",
        code: "video_param_invalid",
        message: '`params.aspect_ratio: "4:3"` is not allowed by veo-3-fast (allowed: 16:9, 9:16)',
      },
      {
        at: "12:19",
        severity: "error",
        code: "video_param_invalid",
        message: "`params.guidance: 12` is over veo-3-fast's maximum of 10",
        hint: "veo-3-fast allows 0 to 10",
      },
    ]);
  });

  it("accepts declared values, expressions (checked when they run) and any parameter of a model that declares none", async () => {
    const dir = project();
    const found = await problems(
      dir,
      [
        "name: params",
        "inputs:",
        "  seed: { type: integer, default: 3 }",
        "steps:",
        "  - id: clip",
        "    video:",
        "      model: veo-3-fast",
        "      prompt: a fox",
        "      params:",
        `        seed: \${{ inputs.seed }}`,
        "        negative_prompt: blurry",
        '        aspect_ratio: "9:16"',
        "        guidance: 7.5",
        "        last_frame: frames/end.png",
        "  - id: open",
        "    video:",
        "      model: open-model",
        "      prompt: a fox",
        "      params: { anything: true, motion: 3 }",
        "",
      ].join("\n"),
    );
    expect(found).toEqual([]);
  });

  it("finds a problem of defaults.video.params in the defaults, and a step's params replace the defaults' whole", async () => {
    const dir = project();
    const found = await problems(
      dir,
      [
        "name: params",
        "defaults:",
        "  video:",
        "    model: veo-3-fast",
        "    params: { seed: 1.5 }",
        "steps:",
        "  - id: inherits",
        "    video: { prompt: a fox }",
        "  - id: replaces",
        "    video: { prompt: a cat, params: { seed: 4 } }",
        "",
      ].join("\n"),
    );
    expect(found).toEqual([
      {
        at: "5:21",
        severity: "error",
        code: "video_param_invalid",
        message: "`params.seed` must be an integer for veo-3-fast; got 1.5",
      },
    ]);
  });

  it("refuses values of no parameter type and bad names, each value with its own message", async () => {
    const dir = project();
    const source = [
      "name: params",
      "steps:",
      "  - id: clip",
      "    video:",
      "      model: veo-3-fast",
      "      prompt: a fox",
      "      params:",
      "        seed: [1, 2]",
      "        negative_prompt: null",
      "        __proto__: 1",
      "",
    ].join("\n");
    const { diagnostics } = await validatePipeline({ source, path: join(dir, "p.yaml") });
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      "8:15 `seed` must be a string or a number or a boolean, got a list",
      "9:26 `negative_prompt` must be a string or a number or a boolean, got null",
      "10:9 `__proto__` is not a valid name",
    ]);
  });

  it("refuses a parameter named like one of the request's own fields, even for an unknown model", async () => {
    const dir = project();
    const source = [
      "name: params",
      "steps:",
      "  - id: clip",
      "    video: { model: some-model, prompt: a fox, params: { size: 1280x720 } }",
      "",
    ].join("\n");
    const { diagnostics } = await validatePipeline({ source, path: join(dir, "p.yaml") });
    expect(diagnostics).toMatchObject([
      {
        line: 4,
        column: 64,
        code: "video_param_reserved",
        message:
          "`params.size` is one of the request's own fields; set it at the top level of the request, not in `params`.",
      },
    ]);
  });

  it("checks images named in params like `image`: missing and non-image files refused before anything is sent", async () => {
    const dir = project();
    const found = await problems(
      dir,
      [
        "name: params",
        "steps:",
        "  - id: clip",
        "    video:",
        "      model: veo-3-fast",
        "      prompt: a fox",
        "      params:",
        "        last_frame: frames/missing.png",
        "  - id: other",
        "    video:",
        "      model: open-model",
        "      prompt: a fox",
        "      params: { first_frame: frames/notes.png }",
        "",
      ].join("\n"),
    );
    expect(found).toEqual([
      {
        at: "8:21",
        severity: "error",
        code: "file_not_found",
        message: "image of `params.last_frame` not found: frames/missing.png",
        hint: "relative paths are resolved from the pipeline file's folder",
      },
      {
        at: "13:30",
        severity: "error",
        code: "image_invalid",
        message: expect.stringMatching(
          /^image of `params.first_frame` frames\/notes.png cannot be sent: its bytes are not a PNG/,
        ),
        hint: "images are PNG, JPEG, GIF or WebP files of at most 10 MiB",
      },
    ]);
  });

  it("plans with the problems of params known before the run (from inputs)", async () => {
    const dir = project();
    writeFileSync(
      join(dir, "plan.yaml"),
      [
        "name: plan",
        "inputs:",
        "  ratio: { type: string, default: '16:9' }",
        "steps:",
        "  - id: clip",
        "    video:",
        "      model: veo-3-fast",
        "      prompt: a fox",
        `      params: { aspect_ratio: '\${{ inputs.ratio }}', seed: 2 }`,
        "",
      ].join("\n"),
    );
    const pipeline = await loadPipeline(join(dir, "plan.yaml"), {
      catalogs: { video_models: catalog },
    });
    const ok = planPipeline(pipeline, { catalogs: { video_models: catalog } });
    expect(ok.problems).toEqual([]);
    const bad = planPipeline(pipeline, {
      catalogs: { video_models: catalog },
      inputs: { ratio: "1:1" },
    });
    expect(bad.problems).toEqual([
      {
        step: "clip",
        message: '`params.aspect_ratio: "1:1"` is not allowed by veo-3-fast (allowed: 16:9, 9:16)',
        field: ["params", "aspect_ratio"],
      },
    ]);
  });
});

describe("video params: what is an image, and how it is sent", () => {
  it("reads an image by its declared type, else by its form", () => {
    const spec = catalog[0];
    expect(isImageParam("last_frame", "https://example.com/a", spec)).toBe(true);
    expect(isImageParam("negative_prompt", "frames/end.png", spec)).toBe(false);
    expect(isImageParam("mask", "frames/end.png", catalog[1])).toBe(true);
    expect(isImageParam("mask", "https://example.com/end.png", catalog[1])).toBe(false);
    expect(looksLikeImage("data:image/png;base64,AAAA")).toBe(true);
    expect(looksLikeImage("blurry")).toBe(false);
    expect(paramFiles({ seed: 7, a: "x.JPG", b: "data:image/gif;base64,R0lG" })).toEqual([
      { path: ["params", "a"], file: "x.JPG", what: "image of `params.a`", format: "image" },
      {
        path: ["params", "b"],
        file: "data:image/gif;base64,R0lG",
        what: "image of `params.b`",
        format: "image",
      },
    ]);
  });

  it("sends a local or data-URI image as its bytes, a URL as it is, and leaves out null values", async () => {
    const dir = project();
    const png = solidPng(32, 18, [10, 20, 30]);
    const sent = await requestParams(
      {
        seed: 7,
        skipped: null,
        last_frame: "frames/end.png",
        mask: `data:image/png;base64,${png.toString("base64")}`,
        reference: "https://example.com/ref.png",
      },
      catalog[0],
      dir,
    );
    expect(sent).toEqual({
      seed: 7,
      last_frame: { data: new Uint8Array(png), mimeType: "image/png", filename: "end.png" },
      mask: { data: png, mimeType: "image/png" },
      reference: "https://example.com/ref.png",
    });
    await expect(
      requestParams({ last_frame: "frames/notes.png" }, catalog[0], dir),
    ).rejects.toMatchObject({
      code: "invalid_image",
      message: expect.stringContaining("frames/notes.png (`params.last_frame`) cannot be sent"),
    });
  });

  it("keys the cache on params and on the bytes of a local file they name", async () => {
    const dir = project();
    const on = { service: "https://api.example.com", inputFiles: videoKind.cache?.inputFiles };
    const spec = { model: "m", prompt: "p", params: { seed: 7, last_frame: "frames/end.png" } };
    const key = await cacheKey("video", spec, dir, on);
    expect(
      await cacheKey(
        "video",
        { ...spec, params: { last_frame: "frames/end.png", seed: 7 } },
        dir,
        on,
      ),
    ).toBe(key);
    expect(
      await cacheKey("video", { ...spec, params: { ...spec.params, seed: 8 } }, dir, on),
    ).not.toBe(key);
    // By its bytes, not its path: the same frame at another path asks for the same clip.
    copyFileSync(join(dir, "frames", "end.png"), join(dir, "frames", "same.png"));
    const moved = { ...spec, params: { ...spec.params, last_frame: "frames/same.png" } };
    expect(await cacheKey("video", moved, dir, on)).toBe(key);
    writeFileSync(join(dir, "frames", "end.png"), solidPng(32, 18, [90, 20, 30]));
    expect(await cacheKey("video", spec, dir, on)).not.toBe(key);
  });
});
