import type { Plan } from "@reelsmith/runner";
import { describe, expect, it } from "vitest";
import { formatPlan } from "./format-plan.js";

const plan: Plan = {
  name: "storyboard",
  description: "A story becomes a video.",
  inputs: { scenes: 3, story: "A fox." },
  notes: ["clips: the number of items is known only at run time"],
  problems: [{ step: "clips", message: "seconds 30 is over reel-video-1's 10" }],
  stages: [
    { index: 0, steps: ["storyboard"] },
    { index: 1, steps: ["clips"] },
    { index: 2, steps: ["final", "sheet"] },
  ],
  steps: [
    {
      id: "storyboard",
      kind: "chat",
      stage: 0,
      dependsOn: [],
      request: {
        known: { model: "reel-chat-1", prompt: "Split into 3 scenes: A fox." },
        pending: [],
      },
    },
    {
      id: "clips",
      kind: "video",
      stage: 1,
      dependsOn: ["storyboard"],
      fanOut: { from: "steps.storyboard.outputs.json.scenes", maxParallel: 4 },
      request: { known: { model: "reel-video-1", seconds: 4 }, pending: ["prompt", "output"] },
      model: "reel-video-1",
    },
    {
      id: "final",
      kind: "ffmpeg",
      stage: 2,
      dependsOn: ["clips"],
      request: { known: { output: "final.mp4" }, pending: ["concat"] },
    },
    {
      id: "sheet",
      kind: "ffmpeg",
      stage: 2,
      dependsOn: ["clips"],
      condition: "success()",
      request: { known: {}, pending: ["contact_sheet"] },
    },
  ],
  limits: {
    models: [
      {
        model: "reel-video-1",
        seconds: "1 to 10 seconds",
        sizes: "1280x720 or 1920x1080",
        steps: ["clips"],
      },
    ],
    maxCredits: 500,
    requests: { videoJobs: undefined, chatRequests: 1 },
    requestLabels: { videoJobs: "video jobs", chatRequests: "chat requests" },
    estimate: { credits: 0, complete: false, steps: { clips: { perUnit: 9 } } },
  },
};

describe("formatPlan", () => {
  it("shows stages, fan-outs, known requests, limits and notes", () => {
    const text = formatPlan(plan);
    expect(text).toContain("plan storyboard — A story becomes a video.");
    expect(text).toContain('inputs: scenes=3, story="A fox."');
    expect(text).toContain(
      "  2. clips (video) fan-out over steps.storyboard.outputs.json.scenes, 4 at a time",
    );
    expect(text).toContain("  3. final (ffmpeg) | sheet (ffmpeg) if success()");
    expect(text).toMatch(
      / {2}clips \(video\)\n {4}model {4}"reel-video-1"\n {4}seconds {2}4\n {4}known at run time: prompt, output/,
    );
    expect(text).toContain(
      "  reel-video-1: 1 to 10 seconds, sizes 1280x720 or 1920x1080 (used by clips)",
    );
    expect(text).toContain("  budget: 500 credits");
    expect(text).toContain(
      "  expected cost: at least 0 credits, the rest known at run time (budget 500)\n    clips  9 per item × N (N known at run time)",
    );
    expect(text).toContain("  video jobs: known at run time; chat requests: 1");
    expect(text).toContain("  - clips: the number of items is known only at run time");
    expect(text).toContain(
      "problems (a run would be refused):\n  - clips: seconds 30 is over reel-video-1's 10",
    );
  });

  it("shortens long values", () => {
    const long = {
      ...plan,
      steps: [{ ...plan.steps[0]!, request: { known: { prompt: "x".repeat(500) }, pending: [] } }],
    };
    const line = formatPlan(long)
      .split("\n")
      .find((l) => l.includes("prompt"))!;
    expect(line.length).toBeLessThan(90);
    expect(line).toContain("…");
  });
});
