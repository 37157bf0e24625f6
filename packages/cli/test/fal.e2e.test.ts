import path from "node:path";
import { describe, expect, it } from "vitest";
import { providerE2e, STACK_FRAME, sum } from "./helpers/provider-e2e.js";

const KEY = "fal-e2e-key-0123456789";
const SUBMIT = "POST /{endpoint}";
const fal = providerE2e({
  dialect: "fal",
  serveKey: KEY,
  timeScale: "0.01",
  statsHeaders: () => ({ authorization: `Key ${KEY}` }),
  env: (url) => ({ REELSMITH_BASE_URL: url, FAL_KEY: KEY }),
});
const { profile: PROFILE, pipeline: PIPELINE } = fal;

describe("a fal profile against reelsmith serve --dialect fal (built CLI)", () => {
  it("validates and runs one clip from a fal endpoint; the ledger's credits are the simulator's charges", async () => {
    const served = await fal.serve();
    expect(served.process.output.stdout).toContain("dialect fal");

    const validated = await fal.cli(["validate", PIPELINE, "--config", PROFILE], served.env);
    expect(validated.code, validated.stderr).toBe(0);

    const result = await fal.cli(["run", PIPELINE, "--config", PROFILE, "--json"], served.env);
    expect(result.code, result.stderr).toBe(0);
    const { end, runDir } = fal.runOutcome(result);
    expect(end).toMatchObject({ type: "run.end", status: "succeeded" });
    const charged = await fal.stats(served.url);
    expect(charged.videoJobs.created).toBe(1);
    expect(end?.totals?.credits).toBe(charged.creditsCharged);
    expect(charged.creditsCharged).toBe(35);
    expect(Object.keys(charged.requests)).toContain(SUBMIT);
    await fal.expectMp4(path.join(runDir, "clip.mp4"));
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it("a submission whose answer was lost ends in request_unsettled with where to look, and is not sent again", async () => {
    const served = await fal.serve(["--faults", "drop@videos.create:#1"]);
    const result = await fal.cli(["run", PIPELINE, "--config", PROFILE], served.env);
    expect(result.code).not.toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toContain("(request_unsettled)");
    expect(output).toContain("fal offers no idempotency key");
    expect(output).toContain("https://fal.ai/dashboard/requests");
    expect(output).not.toMatch(STACK_FRAME);
    const after = await fal.stats(served.url);
    expect(Object.values(after.requests[SUBMIT] ?? {})).toEqual([1]);
  });

  it("killed while fal holds the submit answer, a resume stops with request_unsettled and sends nothing again", async () => {
    const served = await fal.serve(["--faults", "stall@videos.create:#1:600000"]);
    const runDir = await fal.killWhileSubmitHeld(served.url, served.env);

    const resumed = await fal.cli(["resume", runDir, "--config", PROFILE], served.env);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain("(request_unsettled)");
    const after = await fal.stats(served.url);
    expect(sum(after.requests[SUBMIT])).toBe(1);
    expect(after.videoJobs.created).toBe(1);
  });
});
