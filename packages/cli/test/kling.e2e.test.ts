import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { klingToken } from "@reelsmith/core/providers";
import { describe, expect, it } from "vitest";
import { cleanEnv } from "./helpers/cli-process.js";
import { providerE2e, sum } from "./helpers/provider-e2e.js";

const ACCESS = "ak-e2e-0123456789";
const SECRET = "sk-e2e-abcdefghijklmnop";
const SUBMIT = "POST /v1/videos/{action}";
const kling = providerE2e({
  dialect: "kling",
  serveKey: `${ACCESS}:${SECRET}`,
  timeScale: "0.01",
  statsHeaders: () => ({ authorization: `Bearer ${klingToken(ACCESS, SECRET)}` }),
  env: (url) => ({
    REELSMITH_BASE_URL: url,
    KLING_ACCESS_KEY: ACCESS,
    KLING_SECRET_KEY: SECRET,
  }),
});
const { profile: PROFILE, pipeline: PIPELINE } = kling;

describe("a Kling profile against reelsmith serve --dialect kling (built CLI)", () => {
  it("runs one clip with the key from two variables; the ledger's credits are the simulator's charges", async () => {
    const served = await kling.serve();
    expect(served.process.output.stdout).toContain("dialect kling");
    const validated = await kling.cli(["validate", PIPELINE, "--config", PROFILE], served.env);
    expect(validated.code, validated.stderr).toBe(0);

    const result = await kling.cli(["run", PIPELINE, "--config", PROFILE, "--json"], served.env);
    expect(result.code, result.stderr).toBe(0);
    const { end, runDir } = kling.runOutcome(result);
    expect(end).toMatchObject({ type: "run.end", status: "succeeded" });
    const charged = await kling.stats(served.url);
    expect(charged.videoJobs.created).toBe(1);
    expect(charged.creditsCharged).toBe(35);
    expect(end?.totals?.credits).toBe(charged.creditsCharged);
    await kling.expectMp4(path.join(runDir, "clip.mp4"));
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  it("with one of the two key variables unset, refuses before sending and names both", async () => {
    const served = await kling.serve();
    const env = cleanEnv({ REELSMITH_BASE_URL: served.url, KLING_ACCESS_KEY: ACCESS });
    const result = await kling.cli(["run", PIPELINE, "--config", PROFILE], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("no_api_key");
    expect(result.stderr).toContain("KLING_ACCESS_KEY and KLING_SECRET_KEY");
    expect(sum((await kling.stats(served.url)).requests[SUBMIT])).toBe(0);
  });

  it("with no service configured, runs the Kling profile offline on the built-in simulator", async () => {
    const profile = (await readFile(PROFILE, "utf8")).replace(/^ {2}base_url: .*\n/m, "");
    const offline = path.join(kling.dir(), "offline.config.yaml");
    await writeFile(offline, profile);
    const result = await kling.cli(["run", PIPELINE, "--config", offline], cleanEnv({}));
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toContain("built-in simulator");
  });

  it("killed while Kling holds the submit answer, a resume finds the one task by external_task_id and makes the clip", async () => {
    const served = await kling.serve(["--faults", "stall@videos.create:#1:600000"]);
    const runDir = await kling.killWhileSubmitHeld(served.url, served.env);

    const resumed = await kling.cli(["resume", runDir, "--config", PROFILE], served.env);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const after = await kling.stats(served.url);
    expect(sum(after.requests[SUBMIT])).toBe(1);
    expect(after.videoJobs.created).toBe(1);
    await kling.expectMp4(path.join(runDir, "clip.mp4"));
  });
});
