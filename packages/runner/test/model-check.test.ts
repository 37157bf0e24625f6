// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MissingConfigurationError } from "@reelsmith/core/errors";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UnknownModelError } from "../src/errors/unknown-model-error.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const pipelineText = (chatModel: string) => `name: typo
steps:
  - id: clip
    video: { model: reel-video-2-lite, seconds: 1, size: 720x480, prompt: a paper boat }
  - id: caption
    needs: [clip]
    chat:
      model: ${chatModel}
      prompt: Write a caption
      tools:
        - { name: extra, pipeline: sub/extra.yaml }
`;
const subText = (videoModel: string) => `name: extra
defaults:
  video: { model: ${videoModel}, seconds: 1, size: 720x480 }
steps:
  - id: more
    video: { prompt: another boat }
`;

describe("models are checked against the service before the first paid request", () => {
  let service: TestService;
  beforeEach(async () => {
    service = await startTestService();
    mkdirSync(join(service.root, "sub"), { recursive: true });
  });
  afterEach(() => service.close());

  it("refuses a misspelled chat model and an unknown sub-pipeline video model, paying nothing", async () => {
    const file = join(service.root, "typo.yaml");
    writeFileSync(file, pipelineText("reel-chat-l"));
    writeFileSync(join(service.root, "sub", "extra.yaml"), subText("reel-video-9"));
    const options = service.options({ cache: false });
    const error = await runPipeline(file, options).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UnknownModelError);
    const unknown = error as UnknownModelError;
    expect(unknown.message).toContain(
      `${file}:8:14: chat model \`reel-chat-l\` is not offered by the service`,
    );
    expect(unknown.message).toContain(
      `${join(service.root, "sub", "extra.yaml")}:3:19: video model \`reel-video-9\` is not offered`,
    );
    expect(unknown.hint).toContain("chat models: reel-chat-1, reel-chat-mini");
    expect(unknown.hint).toContain("reel-video-2-lite");
    // One free request, nothing paid, no run directory.
    // The simulator counts a request once its response has closed: wait for it to say so.
    await vi.waitFor(
      () => expect(service.simulator.stats().requests).toEqual({ "GET /v1/models": { "200": 1 } }),
      { timeout: 10_000 },
    );
    expect(existsSync(join(service.root, "runs"))).toBe(false);
  });

  it("checks a model that comes from an input: the given value, else the default where it is written", async () => {
    const file = join(service.root, "inputs.yaml");
    writeFileSync(
      file,
      [
        "name: from-inputs",
        "inputs:",
        "  chat_model: { type: string, default: reel-chat-1 }",
        "  video_model: { type: string, default: reel-video-2-lyte }",
        "steps:",
        "  - id: caption",
        '    chat: { model: "${{ inputs.chat_model }}", prompt: Write a caption }',
        "  - id: clip",
        "    needs: [caption]",
        '    video: { model: "${{ inputs.video_model }}", seconds: 1, size: 720x480, prompt: a boat }',
        "",
      ].join("\n"),
    );
    const error = await runPipeline(
      file,
      service.options({ cache: false, inputs: { chat_model: "gpt-4o-mini" } }),
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UnknownModelError);
    const { message } = error as UnknownModelError;
    expect(message).toContain(
      `${file}:7:20: chat model \`gpt-4o-mini\` (the value given for input \`chat_model\`) is not offered by the service`,
    );
    expect(message).toContain(
      `${file}:4:41: video model \`reel-video-2-lyte\` (the default of input \`video_model\`) is not offered by the service; did you mean \`reel-video-2-lite\`?`,
    );
    await vi.waitFor(
      () => expect(service.simulator.stats().requests).toEqual({ "GET /v1/models": { "200": 1 } }),
      { timeout: 10_000 },
    );
  });

  it("asks for the model list once per run, sub-runs included", async () => {
    const file = join(service.root, "good.yaml");
    writeFileSync(
      file,
      pipelineText("reel-chat-1")
        .replace("Write a caption", "Use the extra tool")
        .replace("tools:", "tool_choice: extra\n      tools:"),
    );
    writeFileSync(join(service.root, "sub", "extra.yaml"), subText("reel-video-2-lite"));
    const result = await runPipeline(file, service.options({ cache: false }));
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const stats = service.simulator.stats();
    expect(stats.videoJobs.created).toBe(2);
    expect(stats.requests["GET /v1/models"]).toEqual({ "200": 1 });
  });
  it("runs of one client in one process read the model list once, and a refusal reads it again", async () => {
    const inline = (model: string) => ({
      name: "again",
      steps: [{ id: "hello", chat: { model, prompt: "Say hello" } }],
    });
    const options = service.options({ cache: false });
    for (let run = 0; run < 3; run++) {
      const result = await runPipeline(inline("reel-chat-1"), options);
      expect(result.status).toBe("succeeded");
    }
    await vi.waitFor(
      () =>
        expect(service.simulator.stats().requests["POST /v1/chat/completions"]).toEqual({
          "200": 3,
        }),
      { timeout: 10_000 },
    );
    expect(service.simulator.stats().requests["GET /v1/models"]).toEqual({ "200": 1 });
    // A model the kept list does not show is judged with the list as the service has it now.
    const error = await runPipeline(inline("reel-chat-l"), options).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UnknownModelError);
    await vi.waitFor(
      () => expect(service.simulator.stats().requests["GET /v1/models"]).toEqual({ "200": 2 }),
      { timeout: 10_000 },
    );
    expect(service.simulator.stats().requests["POST /v1/chat/completions"]).toEqual({ "200": 3 });
  });
});

describe("a run with no service configured", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "reelsmith-no-service-"));
    vi.stubEnv("REELSMITH_BASE_URL", "");
    vi.stubEnv("OPENAI_BASE_URL", "");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(root, { recursive: true, force: true });
  });

  it("is refused before its run directory is made, saying how to name the service", async () => {
    const file = join(root, "typo.yaml");
    writeFileSync(file, pipelineText("reel-chat-1"));
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub", "extra.yaml"), subText("reel-video-2-lite"));
    const error = await runPipeline(file, {
      runsRoot: join(root, "runs"),
      cacheDir: join(root, "cache"),
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(MissingConfigurationError.isInstance(error)).toBe(true);
    expect((error as MissingConfigurationError).message).toContain("REELSMITH_BASE_URL");
    expect((error as MissingConfigurationError).hint).toContain("REELSMITH_BASE_URL");
    expect(existsSync(join(root, "runs"))).toBe(false);
  });
});
