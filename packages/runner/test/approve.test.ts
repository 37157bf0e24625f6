import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEventOf } from "../src/events/run-event.js";
import { readJournal } from "../src/journal/journal.js";
import { validatePipeline } from "../src/pipeline/index.js";
import { runPipeline } from "../src/run-pipeline.js";
import { decideApproval } from "../src/steps/approve/decide-approval.js";
import { ApprovalRefusedError } from "../src/steps/approve/errors/approval-refused-error.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const APPROVE = fileURLToPath(
  new URL("../../../examples/storyboard/approve.yaml", import.meta.url),
);
const SCENES = 3;

/** Video jobs the simulator made, read from its own state. */
const jobsMade = (service: TestService) => service.simulator.stats().videoJobs.created;

describe("approve: a gate between the storyboard and the clips", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("stops the run waiting with no clip submitted, and goes on once approved", async () => {
    const before = jobsMade(service);
    const options = service.options({ inputs: { scenes: SCENES }, cache: false });
    const waiting = await runPipeline(APPROVE, options);
    expect(waiting.status).toBe("waiting");
    expect(waiting.error).toBeUndefined();
    // Everything that does not depend on the gate finished; nothing behind it started.
    expect(waiting.steps.storyboard?.status).toBe("succeeded");
    expect(waiting.steps.title?.status).toBe("succeeded");
    expect(waiting.steps.review?.status).toBe("waiting");
    for (const id of ["clips", "joined", "final", "sheet"]) {
      expect(waiting.steps[id]).toMatchObject({ status: "waiting", waiting: { on: "review" } });
    }
    expect(jobsMade(service)).toBe(before);
    expect(
      options.events.some((event) => event.type === "step.start" && event.step === "clips"),
    ).toBe(false);

    const wait = options.events.find(
      (event): event is RunEventOf<"step.wait"> =>
        event.type === "step.wait" && event.step === "review",
    );
    const storyboard = waiting.steps.storyboard?.outputs as { json?: { scenes?: unknown[] } };
    const scenes = storyboard?.json?.scenes;
    expect(scenes).toHaveLength(SCENES);
    expect(wait?.details).toMatchObject({
      message: "Read the scenes; approving pays for one clip per scene.",
      show: [scenes],
    });
    // What approving starts: one clip per scene the storyboard made, at the plan's price.
    const next = options.events.find(
      (event): event is RunEventOf<"run.waiting"> => event.type === "run.waiting",
    );
    expect(next?.gates.map((gate) => gate.step)).toEqual(["review"]);
    const clips = next?.next.steps.clips;
    expect(clips?.units).toBe(SCENES);
    expect(clips?.perUnit).toBeGreaterThan(0);
    expect(clips?.credits).toBe((clips?.perUnit ?? 0) * SCENES);
    expect(next?.next.complete).toBe(true);

    const run = JSON.parse(readFileSync(join(waiting.runDir, "run.json"), "utf8"));
    expect(run.status).toBe("waiting");
    const records = readJournal(join(waiting.runDir, "journal.jsonl"));
    expect(records.filter((r) => r.type === "step.wait").map((r) => r.step)).toEqual(["review"]);
    const fact = records.find((r) => r.type === "fact" && r.name === "approval.waiting");
    expect(fact?.data).toMatchObject({ message: expect.any(String), since: expect.any(String) });
    const deadline = (fact?.data as { deadline?: string } | undefined)?.deadline;
    expect(Date.parse(String(deadline))).toBeGreaterThan(Date.now() + 23 * 3_600_000);

    // A step that is not a waiting gate is refused, and nothing is written.
    const size = readFileSync(join(waiting.runDir, "journal.jsonl")).length;
    await expect(
      decideApproval(waiting.runDir, { step: "clips", approved: true, by: "ana" }),
    ).rejects.toMatchObject({ code: "unknown_gate", waiting: ["review"] });
    expect(readFileSync(join(waiting.runDir, "journal.jsonl")).length).toBe(size);

    const decided = await decideApproval(waiting.runDir, {
      approved: true,
      by: "ana",
      note: "scenes read",
    });
    expect(decided).toMatchObject({ step: "review", decision: { approved: true, by: "ana" } });
    // Decided once: the run no longer waits there.
    await expect(decideApproval(waiting.runDir, { approved: false, by: "bo" })).rejects.toSatisfy(
      (error) => ApprovalRefusedError.isInstance(error) && error.code === "not_waiting",
    );

    const goOn = service.options({ cache: false });
    const resumed = await runPipeline(undefined, { ...goOn, resume: waiting.runDir });
    expect(resumed.status).toBe("succeeded");
    // The session says why it goes on: the gate was decided (not an interruption).
    expect(goOn.events.find((event) => event.type === "run.start")).toMatchObject({
      resumed: true,
      resumedAfter: "gate",
    });
    expect(resumed.steps.review).toMatchObject({
      status: "succeeded",
      outputs: { approved: true, by: "ana", note: "scenes read", at: decided.decision.at },
    });
    expect(resumed.steps.storyboard?.reused).toBe(true);
    expect(resumed.outputs.approved_by).toBe("ana");
    expect(jobsMade(service)).toBe(before + SCENES);
  });

  it("estimates a resumed run from the outputs its journal holds, with no cache", async () => {
    // The storyboard says how many scenes (one to six): before the run, the clips' number is
    // a range; once it ran, the resumed session counts them from its journal, not the cache.
    const file = join(mkdtempSync(join(tmpdir(), "reelsmith-resume-estimate-")), "p.yaml");
    writeFileSync(
      file,
      [
        "name: scenes-then-clips",
        "defaults:",
        "  chat: { model: reel-chat-1 }",
        "  video: { model: reel-video-2-lite, seconds: 2, size: 854x480 }",
        "steps:",
        "  - id: storyboard",
        "    chat:",
        '      prompt: "A paper boat rides the gutter, falls down a drain and reaches a lake. Split it into scenes."',
        "      schema:",
        "        type: object",
        "        required: [scenes]",
        "        properties:",
        "          scenes:",
        "            type: array",
        "            minItems: 1",
        "            maxItems: 6",
        "            items: { type: object, required: [description], properties: { description: { type: string } } }",
        "  - id: review",
        "    approve: { message: Read the scenes., show: ['${{ steps.storyboard.outputs.json.scenes }}'] }",
        "  - id: clips",
        "    needs: [review]",
        "    for_each: ${{ steps.storyboard.outputs.json.scenes }}",
        "    video: { prompt: '${{ item.description }}' }",
        "",
      ].join("\n"),
    );
    const first = service.options({ cache: false });
    const waiting = await runPipeline(file, first);
    expect(waiting.status).toBe("waiting");
    const planned = first.events.find(
      (event): event is RunEventOf<"run.estimate"> => event.type === "run.estimate",
    )?.estimate;
    expect(planned?.steps.clips).toMatchObject({ unitsAtLeast: 1, unitsAtMost: 6 });
    expect(planned?.complete).toBe(false);
    const storyboard = waiting.steps.storyboard?.outputs as { json?: { scenes?: unknown[] } };
    const scenes = storyboard?.json?.scenes?.length ?? 0;
    expect(scenes).toBeGreaterThan(0);
    await decideApproval(waiting.runDir, { approved: true, by: "ana" });

    const goOn = service.options({ cache: false });
    const resumed = await runPipeline(undefined, { ...goOn, resume: waiting.runDir });
    expect(resumed.status).toBe("succeeded");
    expect(resumed.steps.storyboard?.reused).toBe(true);
    const estimate = goOn.events.find(
      (event): event is RunEventOf<"run.estimate"> => event.type === "run.estimate",
    )?.estimate;
    const perUnit = planned?.steps.clips?.perUnit ?? 0;
    expect(perUnit).toBeGreaterThan(0);
    expect(estimate?.steps.clips).toEqual({ perUnit, units: scenes, credits: perUnit * scenes });
    expect(estimate).toMatchObject({ credits: perUnit * scenes, complete: true });
    // The figure is the bill: what the session spent is what it said before sending anything.
    expect(resumed.totals.credits).toBe(estimate?.credits);
  });

  it("ends the run rejected when the gate is rejected: nothing behind it runs", async () => {
    const before = jobsMade(service);
    const waiting = await runPipeline(
      APPROVE,
      service.options({ inputs: { scenes: 2 }, cache: false }),
    );
    expect(waiting.status).toBe("waiting");
    await decideApproval(waiting.runDir, {
      step: "review",
      approved: false,
      by: "bo",
      note: "scene 2 is off",
    });
    const options = service.options({ cache: false });
    const rejected = await runPipeline(undefined, { ...options, resume: waiting.runDir });
    expect(rejected.status).toBe("rejected");
    expect(rejected.error).toMatchObject({
      code: "approval_rejected",
      by: "bo",
      note: "scene 2 is off",
      step: "review",
    });
    expect(rejected.error?.message).toContain("rejected by bo");
    expect(rejected.steps.review?.status).toBe("failed");
    expect(rejected.steps.clips?.status).toBe("skipped");
    expect(jobsMade(service)).toBe(before);
    const run = JSON.parse(readFileSync(join(waiting.runDir, "run.json"), "utf8"));
    expect(run.status).toBe("rejected");
  });

  it("approves every gate by itself with autoApprove, journaled as a decision by auto", async () => {
    const before = jobsMade(service);
    const result = await runPipeline(
      APPROVE,
      service.options({ inputs: { scenes: 2 }, cache: false, autoApprove: true }),
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs.approved_by).toBe("auto");
    expect(jobsMade(service)).toBe(before + 2);
    const decision = readJournal(join(result.runDir, "journal.jsonl")).find(
      (record) => record.type === "fact" && record.name === "approval.decision",
    );
    expect(decision).toMatchObject({ step: "review", data: { approved: true, by: "auto" } });
  });

  it("fails the gate with approval_timeout when the run resumes after its deadline", async () => {
    const file = join(service.root, "short-gate.yaml");
    writeFileSync(
      file,
      `name: short-gate
steps:
  - id: draft
    chat: { model: reel-chat-1, prompt: "Write one line." }
  - id: gate
    approve:
      message: "Is \${{ steps.draft.outputs.text }} right?"
      timeout: 1ms
  - id: after
    needs: [gate]
    chat: { model: reel-chat-1, prompt: "Go on." }
`,
    );
    const waiting = await runPipeline(file, service.options({ cache: false }));
    expect(waiting.status).toBe("waiting");
    // "After its deadline" made so, not assumed: the wall clock is read past the deadline the
    // gate journaled (a loaded machine's clock may not have moved 1 ms since, or moved back).
    const fact = readJournal(join(waiting.runDir, "journal.jsonl")).find(
      (record) => record.type === "fact" && record.name === "approval.waiting",
    );
    const deadline = Date.parse(String((fact?.data as { deadline?: string })?.deadline));
    expect(Number.isFinite(deadline)).toBe(true);
    while (Date.now() <= deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(
      decideApproval(waiting.runDir, { approved: true, by: "late" }),
    ).rejects.toMatchObject({ code: "approval_expired" });
    const ended = await runPipeline(undefined, {
      ...service.options({ cache: false }),
      resume: waiting.runDir,
    });
    expect(ended.status).toBe("failed");
    expect(ended.steps.gate?.status).toBe("failed");
    expect(ended.steps.gate?.error).toMatchObject({ causeCode: "approval_timeout" });
    expect(ended.error?.message).toContain("before its timeout");
    expect(ended.steps.after?.status).toBe("skipped");
  });

  it("refuses a gate that fans out, before anything runs", async () => {
    const { diagnostics } = await validatePipeline({
      path: "<inline>",
      source: `name: fan-gate
steps:
  - id: gate
    for_each: [1, 2]
    approve: { message: "ok?" }
`,
    });
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "fan_out_not_allowed", line: 4, severity: "error" }),
    ]);
  });
});
