// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { videoModels } from "@reelsmith/simulator/catalog";
import { describe, expect, it } from "vitest";
import { loadPipeline } from "../pipeline/validate-pipeline.js";
import { planPipeline } from "./plan-pipeline.js";

const storyboard = new URL("../pipeline/__fixtures__/valid/storyboard.yaml", import.meta.url)
  .pathname;

const inline = (source: string) => loadPipeline({ source, path: "<inline>" });

describe("planPipeline", () => {
  it("plans the storyboard: stages, fan-out from an earlier step, known requests, limits", async () => {
    const plan = planPipeline(await loadPipeline(storyboard), {
      inputs: { scenes: "4" },
      catalogs: { video_models: videoModels },
    });
    expect(plan.stages.map((stage) => stage.steps)).toEqual([
      ["storyboard"],
      ["clips"],
      ["final", "sheet"],
    ]);
    const [board, clips, final] = plan.steps;
    expect(board?.request.known.prompt).toBe(
      "Split this story into 4 scenes: A fox crosses a frozen river at dawn.",
    );
    expect(board?.request.known.model).toBe("reel-chat-1");
    expect(clips?.fanOut).toEqual({ maxParallel: 4, from: "steps.storyboard.outputs.json.scenes" });
    expect(clips?.request.known).toMatchObject({
      model: "reel-video-1",
      seconds: 4,
      size: "1280x720",
    });
    expect(clips?.request.pending.sort()).toEqual(["output", "prompt"]);
    expect(final?.dependsOn).toEqual(["clips"]);
    expect(plan.limits.models).toEqual([
      {
        model: "reel-video-1",
        seconds: "1 to 10 seconds",
        sizes: "1280x720, 720x1280, 1920x1080 or 1080x1920",
        steps: ["clips"],
      },
    ]);
    expect(plan.limits.maxCredits).toBe(500);
    expect(plan.limits.requests.videoJobs).toBeUndefined(); // the number of scenes is only known at run time
    expect(plan.limits.requests.chatRequests).toBe(1);
  });

  it("counts jobs when fan-outs are known from inputs", async () => {
    const pipeline = await inline(`name: known
inputs: { shots: { type: array, default: [a, b, c] } }
defaults: { video: { model: reel-video-2-lite } }
steps:
  - id: clips
    for_each: \${{ inputs.shots }}
    video: { prompt: "\${{ item }}" }
  - id: one
    video: { prompt: solo, seconds: 8 }
`);
    const plan = planPipeline(pipeline);
    expect(plan.steps[0]?.fanOut).toEqual({ items: 3 });
    expect(plan.limits.requests.videoJobs).toBe(4);
    expect(plan.steps.map((step) => step.requests)).toEqual([{ videoJobs: 1 }, { videoJobs: 1 }]);
    expect(plan.stages).toEqual([{ index: 0, steps: ["clips", "one"] }]);
    // A resumed run's made units send nothing more: two of the three clips are journaled.
    const resumed = planPipeline(pipeline, { journaled: (step) => (step === "clips" ? 2 : 0) });
    expect(resumed.limits.requests.videoJobs).toBe(2);
  });

  it("checks video limits that become known from inputs", async () => {
    const pipeline = await inline(`name: limits
inputs: { seconds: { type: integer, default: 4 } }
steps:
  - id: clip
    video: { model: reel-video-2-lite, prompt: fox, seconds: "\${{ inputs.seconds }}" }
`);
    expect(planPipeline(pipeline, { catalogs: { video_models: videoModels } }).problems).toEqual(
      [],
    );
    const problems = planPipeline(pipeline, {
      inputs: { seconds: "9" },
      catalogs: { video_models: videoModels },
    }).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]?.step).toBe("clip");
    expect(problems[0]?.message).toContain("reel-video-2-lite");
  });

  it("notes inputs it cannot resolve instead of failing", async () => {
    const pipeline = await inline(`name: needs-input
inputs: { topic: { type: string } }
steps:
  - id: a
    chat: { model: reel-chat-1, prompt: "About \${{ inputs.topic }}" }
`);
    const plan = planPipeline(pipeline);
    expect(plan.inputs).toBeUndefined();
    expect(plan.notes[0]).toContain("topic");
    expect(plan.steps[0]?.request.pending).toEqual(["prompt"]);
  });
});
