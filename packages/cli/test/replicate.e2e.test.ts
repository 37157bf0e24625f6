import path from "node:path";
import { describe, expect, it } from "vitest";
import { providerE2e, sum } from "./helpers/provider-e2e.js";

const KEY = "r8_replicate-e2e-key-0123456789";
const SUBMIT = "POST /v1/models/:owner/:name/predictions";
const replicate = providerE2e({
  dialect: "replicate",
  serveKey: KEY,
  timeScale: "0.01",
  statsHeaders: () => ({ authorization: `Bearer ${KEY}` }),
  env: (url) => ({ REELSMITH_BASE_URL: `${url}/v1`, REPLICATE_API_TOKEN: KEY }),
});
const { profile: PROFILE, pipeline: PIPELINE } = replicate;

describe("a Replicate profile against reelsmith serve --dialect replicate (built CLI)", () => {
  it("validates and runs one clip from a Replicate model; the ledger's credits are the simulator's charges", async () => {
    const served = await replicate.serve();
    expect(served.process.output.stdout).toContain("dialect replicate");
    const validated = await replicate.cli(["validate", PIPELINE, "--config", PROFILE], served.env);
    expect(validated.code, validated.stderr).toBe(0);
    const result = await replicate.cli(
      ["run", PIPELINE, "--config", PROFILE, "--json"],
      served.env,
    );
    expect(result.code, result.stderr).toBe(0);
    const { end, runDir } = replicate.runOutcome(result);
    expect(end).toMatchObject({ type: "run.end", status: "succeeded" });
    const charged = await replicate.stats(served.url);
    expect(charged.videoJobs.created).toBe(1);
    expect(end?.totals?.credits).toBe(charged.creditsCharged);
    expect(charged.creditsCharged).toBe(35);
    expect(sum(charged.requests[SUBMIT])).toBe(1);
    await replicate.expectMp4(path.join(runDir, "clip.mp4"));
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it("killed while Replicate holds the submit answer, a resume finds the one prediction in the list and makes the clip", async () => {
    const served = await replicate.serve(["--faults", "stall@videos.create:#1:600000"]);
    const runDir = await replicate.killWhileSubmitHeld(served.url, served.env);
    const resumed = await replicate.cli(["resume", runDir, "--config", PROFILE], served.env);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const after = await replicate.stats(served.url);
    expect(sum(after.requests[SUBMIT])).toBe(1);
    expect(sum(after.requests["GET /v1/predictions"])).toBeGreaterThanOrEqual(1);
    expect(after.videoJobs.created).toBe(1);
    expect(after.creditsCharged).toBe(35);
    await replicate.expectMp4(path.join(runDir, "clip.mp4"));
  });
});
