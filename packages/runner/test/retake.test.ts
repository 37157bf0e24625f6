import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TakeError } from "../src/errors/take-error.js";
import { readJournal } from "../src/journal/journal.js";
import { ledgerOf } from "../src/ledger/ledger.js";
import { runPipeline } from "../src/run-pipeline.js";
import { pickTake } from "../src/takes/pick-take.js";
import { retakeItem } from "../src/takes/retake-item.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const records = (runDir: string, type: string) =>
  readJournal(join(runDir, "journal.jsonl")).filter((record) => record.type === type);
/** Steps that ran (not reused) after the journal's `n`th record of `type`. */
const ranAfter = (runDir: string, type: string): string[] => {
  const journal = readJournal(join(runDir, "journal.jsonl"));
  const from = journal.findLastIndex((record) => record.type === type);
  return journal
    .slice(from)
    .filter((record) => record.type === "step.start")
    .map((record) => String(record.step));
};

describe("retake and pick on a finished storyboard", () => {
  let service: TestService;
  let runDir: string;
  let firstFinal: string;
  const clip = (name: string) => join(runDir, "clips", name);

  beforeAll(async () => {
    service = await startTestService();
    const pipeline = join(service.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
    const result = await runPipeline(pipeline, service.options());
    expect(result.status).toBe("succeeded");
    runDir = result.runDir;
    firstFinal = sha(join(runDir, "final.mp4"));
  });
  afterAll(() => service.close());

  it("makes one new job for item 1 with a new prompt, keeps both takes and rebuilds what depends on it", async () => {
    const before = service.simulator.stats();
    expect(before.videoJobs.created).toBe(3);
    const takeOne = sha(clip("scene-1.mp4"));
    const options = service.options();
    const result = await retakeItem(
      runDir,
      { step: "clips", index: 1, prompt: "Scene 1: the fox stops under a frozen waterfall" },
      options,
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    expect(options.events.find((event) => event.type === "run.start")).toMatchObject({
      resumed: true,
      resumedAfter: "take",
    });
    const after = service.simulator.stats();
    expect(after.videoJobs.created).toBe(4);
    // The storyboard's chat step is not asked again; the other clips are reused.
    expect(after.chatCompletions).toBe(before.chatCompletions);
    expect(ranAfter(runDir, "take.start").sort()).toEqual(["clips", "final", "poster", "sheet"]);
    // Take 1 is kept beside the path, which now holds take 2; both are on disk.
    expect(sha(clip("scene-1.take-1.mp4"))).toBe(takeOne);
    expect(sha(clip("scene-1.take-2.mp4"))).toBe(sha(clip("scene-1.mp4")));
    expect(sha(clip("scene-1.mp4"))).not.toBe(takeOne);
    // The joined video was made again from the new take.
    expect(sha(join(runDir, "final.mp4"))).not.toBe(firstFinal);
    const clips = result.steps.clips?.outputs as { file: string }[];
    const durations = await Promise.all(clips.map(async (c) => (await probe(c.file)).duration));
    expect((await probe(String(result.outputs.video))).duration).toBeCloseTo(
      durations.reduce((a, b) => a + b, 0),
      1,
    );
    // One `take` record per take: the first, then the new one, with its prompt, job and cost.
    const takes = records(runDir, "take");
    expect(takes.map((take) => take.take)).toEqual([1, 2]);
    expect(takes[0]).toMatchObject({ step: "clips", index: 1, file: "clips/scene-1.take-1.mp4" });
    expect(String(takes[0]?.prompt)).toMatch(/^Scene 1: /);
    expect(takes[1]).toMatchObject({
      step: "clips",
      index: 1,
      prompt: "Scene 1: the fox stops under a frozen waterfall",
      request: { prompt: "Scene 1: the fox stops under a frozen waterfall" },
      file: "clips/scene-1.take-2.mp4",
    });
    const job = records(runDir, "fact").findLast(
      (fact) => fact.name === "video.submitted" && fact.index === 1,
    );
    const submitted = (job?.data ?? {}) as { jobId?: string; idempotencyKey?: string };
    expect(takes[1]?.jobId).toBe(submitted.jobId);
    expect(String(submitted.idempotencyKey)).toMatch(/-1-take2-1$/);
    // The ledger counts the new job: it agrees with what the service charged.
    const ledger = ledgerOf(readJournal(join(runDir, "journal.jsonl")));
    expect(ledger.total.credits).toBe(after.creditsCharged);
    expect(ledger.total.jobsSubmitted).toBe(4);
    expect(takes[1]?.credits).toBe(after.creditsCharged - before.creditsCharged);
    expect(ledger.takes["clips#1@2"]?.credits).toBe(takes[1]?.credits);
    expect(result.totals.credits).toBe(after.creditsCharged);
  });

  it("is never served by the cache: the same request again is one new job", async () => {
    const before = service.simulator.stats().videoJobs.created;
    // No changes: take 2's request again (the cache holds its result).
    const result = await retakeItem(runDir, { step: "clips", index: 1 }, service.options());
    expect(result.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created).toBe(before + 1);
    expect(records(runDir, "take.start").at(-1)).toMatchObject({
      take: 3,
      request: { prompt: "Scene 1: the fox stops under a frozen waterfall" },
    });
    expect(existsSync(clip("scene-1.take-3.mp4"))).toBe(true);
  });

  it("picks take 1 back without paying: the joined video is made from it again", async () => {
    const before = service.simulator.stats();
    const result = await pickTake(runDir, { step: "clips", index: 1, take: 1 }, service.options());
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created).toBe(before.videoJobs.created);
    expect(service.simulator.stats().chatCompletions).toBe(before.chatCompletions);
    expect(sha(clip("scene-1.mp4"))).toBe(sha(clip("scene-1.take-1.mp4")));
    expect(ranAfter(runDir, "take.pick").sort()).toEqual(["clips", "final", "poster", "sheet"]);
    // The same clips as the first run: the same joined video.
    expect(sha(join(runDir, "final.mp4"))).toBe(firstFinal);
    expect(records(runDir, "take.pick").at(-1)).toMatchObject({ step: "clips", index: 1, take: 1 });
    // A resume after the pick reuses everything.
    const resumed = await runPipeline(undefined, service.options({ resume: runDir }));
    expect(resumed.status).toBe("succeeded");
    expect(Object.values(resumed.steps).every((step) => step.reused)).toBe(true);
    expect(service.simulator.stats().videoJobs.created).toBe(before.videoJobs.created);
  });

  it("refuses an unknown step, item or take before anything is written", async () => {
    const size = readFileSync(join(runDir, "journal.jsonl")).length;
    const refusal = async (work: Promise<unknown>) => {
      const error = await work.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(TakeError.isInstance(error)).toBe(true);
      return error as TakeError;
    };
    const options = service.options();
    expect(
      (await refusal(retakeItem(runDir, { step: "clipz", index: 1 }, options))).message,
    ).toMatch(
      /no step `clipz`; did you mean `clips`\? \(its steps: `storyboard`, `clips`, `final`, `sheet`, `poster`\)/,
    );
    expect((await refusal(retakeItem(runDir, { step: "clips", index: 3 }, options))).code).toBe(
      "unknown_item",
    );
    expect((await refusal(retakeItem(runDir, { step: "clips" }, options))).message).toMatch(
      /--item N \(items 0–2\)/,
    );
    expect((await refusal(retakeItem(runDir, { step: "final", index: 0 }, options))).code).toBe(
      "not_a_fan_out",
    );
    // The storyboard feeds the clips: their journaled jobs would not be made again.
    expect((await refusal(retakeItem(runDir, { step: "storyboard" }, options))).message).toMatch(
      /`clips` is made from `storyboard` by jobs at the service/,
    );
    expect(
      (await refusal(retakeItem(runDir, { step: "final", prompt: "x" }, options))).message,
    ).toMatch(/`ffmpeg` step, which has no `prompt`/);
    const unknown = await refusal(pickTake(runDir, { step: "clips", index: 1, take: 9 }, options));
    expect(unknown.message).toMatch(/has takes 1, 2, 3, take 1 picked; there is no take 9/);
    expect(
      (await refusal(pickTake(runDir, { step: "clips", index: 0, take: 2 }, options))).code,
    ).toBe("unknown_take");
    expect(readFileSync(join(runDir, "journal.jsonl")).length).toBe(size);
  });
});

describe("retake and pick of a step without for_each", () => {
  let service: TestService;
  afterAll(() => service?.close());

  it("keeps its first clip, makes one job, and puts it back", async () => {
    service = await startTestService();
    const first = await runPipeline(
      {
        name: "single",
        defaults: { video: { model: "reel-video-2-lite", seconds: 1, size: "720x480" } },
        steps: [
          { id: "intro", video: { prompt: "a lantern in the snow", output: "intro.mp4" } },
          {
            id: "poster",
            ffmpeg: { thumbnail: "${{ steps.intro.outputs.file }}", output: "poster.jpg" },
          },
        ],
      },
      service.options(),
    );
    expect(first.status).toBe("succeeded");
    const { runDir } = first;
    const original = sha(join(runDir, "intro.mp4"));
    const poster = sha(join(runDir, "poster.jpg"));
    const retaken = await retakeItem(
      runDir,
      { step: "intro", prompt: "a lantern on a frozen lake" },
      service.options(),
    );
    expect(retaken.error).toBeUndefined();
    expect(service.simulator.stats().videoJobs.created).toBe(2);
    expect(sha(join(runDir, "intro.take-1.mp4"))).toBe(original);
    expect(sha(join(runDir, "intro.take-2.mp4"))).toBe(sha(join(runDir, "intro.mp4")));
    expect(sha(join(runDir, "poster.jpg"))).not.toBe(poster);
    const picked = await pickTake(runDir, { step: "intro", take: 1 }, service.options());
    expect(picked.error).toBeUndefined();
    expect(service.simulator.stats().videoJobs.created).toBe(2);
    expect(sha(join(runDir, "intro.mp4"))).toBe(original);
    expect(sha(join(runDir, "poster.jpg"))).toBe(poster);
    const resumed = await runPipeline(undefined, service.options({ resume: runDir }));
    expect(Object.values(resumed.steps).every((step) => step.reused)).toBe(true);
  });
});
