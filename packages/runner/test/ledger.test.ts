// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "../src/events/run-event.js";
import { readJournal } from "../src/journal/journal.js";
import { ledgerOf } from "../src/ledger/ledger.js";
import { runPipeline } from "../src/run-pipeline.js";
import { filesUnder, startTestService, type TestService } from "./helpers/simulator.js";

const defaults = {
  video: { model: "reel-video-2-lite", seconds: 1, size: "720x480" },
  chat: { model: "reel-chat-1" },
};

/** A storyboard: a chat's scenes (known at run time), a clip each, and a join. */
function storyboard(word: string) {
  return {
    name: "ledger",
    defaults,
    steps: [
      {
        id: "storyboard",
        chat: {
          prompt: `Three scenes about ${word}`,
          schema: {
            type: "object",
            required: ["scenes"],
            properties: {
              scenes: { type: "array", minItems: 3, maxItems: 3, items: { type: "string" } },
            },
          },
        },
      },
      {
        id: "clips",
        for_each: "${{ steps.storyboard.outputs.json.scenes }}",
        video: { prompt: `${word} \${{ item }}` },
      },
      { id: "final", ffmpeg: { concat: "${{ steps.clips.outputs.*.file }}", output: "final.mp4" } },
    ],
  };
}

/** Clips of a literal list: every request is known before the run. */
function literal(word: string) {
  return {
    name: "literal",
    defaults,
    steps: [
      {
        id: "clips",
        for_each: ["dawn", "noon", "dusk"],
        video: { prompt: `${word} at \${{ item }}` },
      },
    ],
  };
}

function stepEnd(events: RunEvent[], step: string) {
  const end = events.find((event) => event.type === "step.end" && event.step === step);
  return end?.type === "step.end" ? end : undefined;
}

function estimateOf(events: RunEvent[]) {
  const event = events.find((e) => e.type === "run.estimate");
  return event?.type === "run.estimate" ? event.estimate : undefined;
}

describe("the ledger", () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("says what was spent, and on a cached rerun spent 0 and saved the first run's spending", async () => {
    service = await startTestService();
    const word = `w${Date.now().toString(36)}`;
    const first = service.options();
    const one = await runPipeline(storyboard(word), first);
    expect(one.status).toBe("succeeded");
    const charged = service.simulator.stats().creditsCharged;
    expect(charged).toBeGreaterThan(0);
    expect(one.totals).toMatchObject({
      credits: charged,
      savedCredits: 0,
      made: { videos: 3 },
      jobsSubmitted: 3,
      jobsReattached: 0,
      jobsCached: 0,
    });
    expect(stepEnd(first.events, "clips")?.totals).toMatchObject({
      credits: charged,
      jobsSubmitted: 3,
    });
    expect(stepEnd(first.events, "storyboard")?.totals?.totalTokens).toBeGreaterThan(0);
    // The journal's ledger is the same figures.
    const journaled = ledgerOf(readJournal(join(one.runDir, "journal.jsonl")));
    expect(journaled.total.credits).toBe(charged);
    expect(journaled.steps.clips?.jobsSubmitted).toBe(3);

    const second = service.options();
    const two = await runPipeline(storyboard(word), second);
    expect(two.status).toBe("succeeded");
    // Nothing new was paid: the service's figure did not move.
    expect(service.simulator.stats().creditsCharged).toBe(charged);
    expect(two.totals).toMatchObject({
      credits: 0,
      savedCredits: charged,
      jobsSubmitted: 0,
      jobsCached: 3,
      totalTokens: 0,
    });
    expect(stepEnd(second.events, "clips")?.totals).toMatchObject({
      credits: 0,
      savedCredits: charged,
      jobsCached: 3,
    });
    const cachedLedger = ledgerOf(readJournal(join(two.runDir, "journal.jsonl")));
    expect(cachedLedger.total).toMatchObject({ credits: 0, savedCredits: charged });
  });

  it("estimates a run before its first request, counting what the cache holds as 0", async () => {
    service = await startTestService();
    const word = `w${Date.now().toString(36)}`;
    const first = service.options({ maxCredits: 100 });
    await runPipeline(literal(word), first);
    // Three 1 s 720x480 clips at 4 credits each, all known now.
    expect(estimateOf(first.events)).toEqual({
      credits: 12,
      complete: true,
      steps: { clips: { perUnit: 4, units: 3, credits: 12 } },
    });
    const charged = service.simulator.stats().creditsCharged;
    expect(charged).toBe(12);
    // The same request again: the cache holds every clip, so it is expected to cost nothing,
    // and a budget below the uncached price does not refuse it.
    const second = service.options({ maxCredits: 5 });
    const result = await runPipeline(literal(word), second);
    expect(estimateOf(second.events)).toEqual({
      credits: 0,
      complete: true,
      steps: { clips: { perUnit: 4, units: 0, cached: 3, credits: 0 } },
    });
    expect(result.status).toBe("succeeded");
    expect(result.totals).toMatchObject({ credits: 0, savedCredits: 12, estimatedCredits: 0 });
    expect(service.simulator.stats().creditsCharged).toBe(charged);
  });

  it("does not count a cached unit whose file is gone as free, in the run's estimate or a fan-out's admission", async () => {
    service = await startTestService();
    const word = `w${Date.now().toString(36)}`;
    const blobs = join(service.root, "cache", "blobs");
    const clipBlobs = () =>
      existsSync(blobs) ? filesUnder(blobs).filter((file) => readFileSync(file).length > 1000) : [];
    /** Removes the cached file of one clip (each clip is one blob) made since `known`. */
    const loseOneBlob = (known: readonly string[]) => {
      const [blob] = clipBlobs().filter((file) => !known.includes(file));
      expect(blob).toBeDefined();
      rmSync(blob as string);
    };
    // Known before the run: its estimate prices the clip whose file is gone, and a budget
    // below that price refuses the run before any request.
    expect((await runPipeline(literal(word), service.options())).status).toBe("succeeded");
    loseOneBlob([]);
    const charged = service.simulator.stats().creditsCharged;
    const tight = service.options({ maxCredits: 3 });
    await expect(runPipeline(literal(word), tight)).rejects.toMatchObject({
      code: "budget_exceeded_by_estimate",
      message: expect.stringContaining(
        "expected to cost 4 credits (clips: 4), over its budget of 3",
      ),
    });
    const enough = service.options({ maxCredits: 5 });
    expect((await runPipeline(literal(word), enough)).status).toBe("succeeded");
    expect(estimateOf(enough.events)?.steps.clips).toEqual({
      perUnit: 4,
      units: 1,
      cached: 2,
      credits: 4,
    });
    expect(service.simulator.stats().creditsCharged).toBe(charged + 4);
    // Known at run time (a storyboard's scenes): the fan-out's admission prices it, as it is
    // then charged.
    const story = `s${word}`;
    const literalClips = clipBlobs();
    expect((await runPipeline(storyboard(story), service.options())).status).toBe("succeeded");
    loseOneBlob(literalClips);
    const before = service.simulator.stats().creditsCharged;
    const admitted = service.options();
    expect((await runPipeline(storyboard(story), admitted)).status).toBe("succeeded");
    const estimates = admitted.events.filter((e) => e.type === "run.estimate");
    expect(estimateOf(estimates.slice(-1))?.steps.clips).toMatchObject({
      units: 1,
      cached: 2,
      credits: 4,
    });
    expect(service.simulator.stats().creditsCharged).toBe(before + 4);
  });

  it("refuses a run whose certain cost is over its budget, before any request or run directory", async () => {
    service = await startTestService();
    const options = service.options({ maxCredits: 5 });
    const refused = runPipeline(literal(`w${Date.now().toString(36)}`), options);
    await expect(refused).rejects.toMatchObject({
      code: "budget_exceeded_by_estimate",
      message: expect.stringContaining(
        "expected to cost 12 credits (clips: 3 × 4 = 12), over its budget of 5",
      ),
    });
    expect(service.simulator.stats().videoJobs.created).toBe(0);
    expect(options.events.filter((e) => e.type === "run.start")).toHaveLength(0);
  });
});
