import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const parent = `name: parent
max_credits: 4
defaults:
  video: { model: reel-video-2-lite, seconds: 1, size: 720x480 }
steps:
  - id: first
    video: { prompt: "the first clip" }
  - id: nested
    needs: [first]
    chat:
      model: reel-chat-1
      prompt: "Make a clip of: a fox at dawn"
      tool_choice: make_clip
      tools:
        - name: make_clip
          description: Make a clip with the clip pipeline
          parameters: { type: object, properties: { text: { type: string } }, required: [text] }
          pipeline: ./sub/clip.yaml
`;

const sub = `name: clip
inputs:
  text: { type: string }
steps:
  - id: clip
    video: { model: reel-video-2-lite, seconds: 1, size: 720x480, prompt: "\${{ inputs.text }}" }
outputs:
  file: \${{ steps.clip.outputs.file }}
`;

describe("a sub-pipeline tool spends from its parent's budget and totals", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("refuses the sub-pipeline's video job once the parent's max_credits is spent", async () => {
    mkdirSync(join(service.root, "sub"), { recursive: true });
    writeFileSync(join(service.root, "parent.yaml"), parent);
    writeFileSync(join(service.root, "sub", "clip.yaml"), sub);
    const options = service.options({ cache: false });
    const result = await runPipeline(join(service.root, "parent.yaml"), options);
    // One clip (4 credits) reaches the budget: the tool's pipeline may not submit another.
    expect(service.simulator.stats().videoJobs.created).toBe(1);
    expect(result.status).toBe("budget_reached");
    expect(result.error?.code).toBe("budget_reached");
    expect(options.events.filter((event) => event.type === "budget.reached")).toHaveLength(1);
  });

  it("counts the sub-pipeline's credits in the calling step's and the run's totals", async () => {
    mkdirSync(join(service.root, "sub"), { recursive: true });
    writeFileSync(join(service.root, "totals.yaml"), parent.replace("max_credits: 4\n", ""));
    writeFileSync(join(service.root, "sub", "clip.yaml"), sub);
    const options = service.options({ cache: false });
    const result = await runPipeline(join(service.root, "totals.yaml"), options);
    expect(result.status).toBe("succeeded");
    const first = result.steps.first?.totals;
    const nested = result.steps.nested?.totals;
    // The sub-run's own run.json holds what it spent: the parent's chat step carries it.
    const subRuns = readdirSync(join(result.runDir, "subruns"));
    expect(subRuns).toHaveLength(1);
    const subRun = JSON.parse(
      readFileSync(join(result.runDir, "subruns", subRuns[0] as string, "run.json"), "utf8"),
    );
    expect(subRun.totals.credits).toBeGreaterThan(0);
    expect(nested?.credits).toBe(subRun.totals.credits);
    expect(nested?.made.videos).toBe(1);
    expect(nested?.totalTokens).toBeGreaterThan(subRun.totals.totalTokens);
    expect(result.totals.credits).toBe((first?.credits ?? 0) + subRun.totals.credits);
    expect(result.totals.made.videos).toBe(2);
    const stepEnd = options.events.find((e) => e.type === "step.end" && e.step === "nested");
    expect(stepEnd?.type === "step.end" && stepEnd.totals?.credits).toBe(subRun.totals.credits);
  });
});

describe("a sub-pipeline tool shares its parent's video limit", () => {
  let service: TestService;
  beforeAll(async () => {
    // Clips of ~0.5 s: the parent's clips are still in flight when the tool's start.
    service = await startTestService({ timeScale: 0.2 });
  });
  afterAll(() => service.close());

  it("keeps the run's and its sub-runs' video jobs together within --max-videos", async () => {
    mkdirSync(join(service.root, "sub"), { recursive: true });
    const clips = (count: number, text: string) =>
      `for_each: [${Array.from({ length: count }, (_, i) => i).join(", ")}]
    video: { model: reel-video-2-lite, seconds: 1, size: 720x480, prompt: "${text} \${{ item }}" }`;
    writeFileSync(
      join(service.root, "shared-limit.yaml"),
      `name: shared-limit
steps:
  - id: own
    ${clips(6, "own clip")}
  - id: nested
    chat:
      model: reel-chat-1
      prompt: "Make clips of: a fox at dawn"
      tool_choice: make_clips
      tools:
        - name: make_clips
          parameters: { type: object, properties: { text: { type: string } }, required: [text] }
          pipeline: ./sub/clips.yaml
`,
    );
    writeFileSync(
      join(service.root, "sub", "clips.yaml"),
      `name: clips
inputs:
  text: { type: string }
steps:
  - id: clips
    ${clips(4, "${{ inputs.text }}")}
outputs:
  count: \${{ 4 }}
`,
    );
    const options = service.options({ cache: false, slots: { video: 2 } });
    const result = await runPipeline(join(service.root, "shared-limit.yaml"), options);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const stats = service.simulator.stats();
    expect(stats.videoJobs.created).toBe(10);
    // The simulator's own count: a sub-run with a limit of its own would make it 4.
    expect(stats.peakConcurrentJobs).toBeLessThanOrEqual(2);
  });
});
