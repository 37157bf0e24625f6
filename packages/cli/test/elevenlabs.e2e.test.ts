import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { providerE2e, STACK_FRAME } from "./helpers/provider-e2e.js";

const KEY = "elevenlabs-e2e-key-0123456789";
const INPUT = "A storm, over the harbour! The lamps went out, one by one.";
const elevenlabs = providerE2e({
  dialect: "elevenlabs",
  serveKey: KEY,
  statsHeaders: () => ({ "xi-api-key": KEY }),
  env: (url) => ({ REELSMITH_BASE_URL: url, ELEVENLABS_API_KEY: KEY }),
});
const { profile: PROFILE, pipeline: PIPELINE } = elevenlabs;

describe("a speech-only ElevenLabs profile against reelsmith serve --dialect elevenlabs (built CLI)", () => {
  it("plans the narration at its characters, runs it with word timings from the alignment (no transcription), and the ledger's credits are the simulator's charge", async () => {
    const served = await elevenlabs.serve();
    const env = served.env;

    const planned = await elevenlabs.cli(["plan", PIPELINE, "--config", PROFILE, "--json"], env);
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as {
      limits: {
        requests: Record<string, number>;
        estimate: { credits: number; complete: boolean };
      };
    };
    // Known from the text: a credit a character, one speech request and no transcription.
    expect(plan.limits.estimate).toMatchObject({ credits: INPUT.length, complete: true });
    expect(plan.limits.requests).toEqual({ speech: 1 });

    const result = await elevenlabs.cli(["run", PIPELINE, "--config", PROFILE, "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const { end, runDir } = elevenlabs.runOutcome(result);
    expect(end).toMatchObject({ type: "run.end", status: "succeeded" });
    const charged = await elevenlabs.stats(served.url);
    expect(charged.speech).toMatchObject({ requests: 1, characters: INPUT.length });
    expect(charged.transcriptions.requests).toBe(0);
    expect(end?.totals?.credits).toBe(charged.creditsCharged);
    expect(charged.creditsCharged).toBe(INPUT.length);

    const run = JSON.parse(await readFile(path.join(runDir, "run.json"), "utf8")) as {
      totals: { credits: number };
      outputs: {
        file: string;
        duration: number;
        words: { word: string; start: number; end: number }[];
        words_from: string;
      };
    };
    expect(run.totals.credits).toBe(charged.creditsCharged);
    expect(run.outputs.words_from).toBe("speech");
    expect(run.outputs.words.map((word) => word.word).join(" ")).toBe(INPUT);
    expect(run.outputs.words.at(-1)?.end ?? 0).toBeLessThanOrEqual(run.outputs.duration + 0.05);
    const audio = await readFile(run.outputs.file);
    expect(audio.length).toBeGreaterThan(1000);
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it("refuses a voice the profile does not list before anything is sent", async () => {
    const served = await elevenlabs.serve();
    const env = served.env;
    const pipeline = path.join(elevenlabs.dir(), "wrong-voice.yaml");
    const text = (await readFile(PIPELINE, "utf8")).replace("JBFqnCBsd6RMkjVDRZzb", "ava");
    await writeFile(pipeline, text);
    const result = await elevenlabs.cli(["run", pipeline, "--config", PROFILE], env);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/voice/);
    expect(result.stdout + result.stderr).not.toMatch(STACK_FRAME);
    expect((await elevenlabs.stats(served.url)).speech.requests).toBe(0);
  });

  it("a narration whose answer was lost is not sent again: the run fails, a resume stops with request_unsettled", async () => {
    const served = await elevenlabs.serve(["--faults", "drop@audio.speech:#1"]);
    const env = served.env;
    const result = await elevenlabs.cli(["run", PIPELINE, "--config", PROFILE], env);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).not.toMatch(STACK_FRAME);
    const runDir = path.resolve(elevenlabs.dir(), /directory (\S+)/.exec(result.stdout)?.[1] ?? "");
    const resumed = await elevenlabs.cli(["resume", runDir, "--config", PROFILE], env);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain("(request_unsettled)");
    expect(resumed.stdout + resumed.stderr).toContain("The provider takes no idempotency key");
    // Made (and charged) once by the server, its answer lost: never sent a second time.
    expect((await elevenlabs.stats(served.url)).speech.requests).toBe(1);
  });
});
