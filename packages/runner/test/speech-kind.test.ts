import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@reelsmith/core";
import { probe } from "@reelsmith/media";
import { speechModels, transcriptionModels } from "@reelsmith/simulator/catalog";
import { afterEach, describe, expect, it } from "vitest";
import { entryFiles } from "../src/cache/file-cache-index.js";
import { readJournal } from "../src/journal/journal.js";
import { ledgerOf } from "../src/ledger/ledger.js";
import { loadPipeline } from "../src/pipeline/validate-pipeline.js";
import { planPipeline } from "../src/plan/plan-pipeline.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startCrashRun, until } from "./helpers/crash-run.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const pipeline = join(import.meta.dirname, "fixtures", "narrated.yaml");
const catalogs = { speech_models: speechModels, transcription_models: transcriptionModels };
const bare = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
const wordsOfText = (text: string) => text.split(/\s+/).map(bare).filter(Boolean);

interface Narration {
  file: string;
  duration: number;
  words: { word: string; start: number; end: number }[];
  words_from: string;
  credits: number;
}

/** Waits for a state of the run or of the service (never for an amount of time). */

/** Facts of a name in a run directory's journal, with the unit's index (none before it exists). */
function speechFacts(runDir: string, name: string): { index?: number }[] {
  const file = join(runDir, "journal.jsonl");
  if (!existsSync(file)) return [];
  return readJournal(file).filter((record) => record.type === "fact" && record.name === name) as {
    index?: number;
  }[];
}

/** Runs the narrated pipeline in its own process, against the simulator; kill it with the handle. */
function crashNarration(service: TestService, runDir: string) {
  const copy = join(service.root, "narrated.yaml");
  copyFileSync(pipeline, copy);
  return startCrashRun(service, "crash-narration.mjs", copy, runDir);
}

describe("speech kind against the simulator", () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("narrates each scene (file, probed duration, heard words), charges once, and a clip follows its narration's length", async () => {
    service = await startTestService({ timeScale: 0.05 });
    const options = service.options({ catalogs });
    const result = await runPipeline(pipeline, options);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const storyboard = result.steps.storyboard?.outputs as {
      json: { scenes: { description: string }[] };
    };
    const narrations = result.steps.narration?.outputs as Narration[];
    expect(narrations).toHaveLength(3);
    for (const [index, narration] of narrations.entries()) {
      expect(narration.file).toBe(join(result.runDir, "audio", `narration-${index}.wav`));
      expect(existsSync(narration.file)).toBe(true);
      const info = await probe(narration.file);
      expect(narration.duration).toBeGreaterThan(0);
      expect(narration.duration).toBe(info.audioDuration ?? info.duration);
      const text = storyboard.json.scenes[index]?.description ?? "";
      expect(narration.words.map((entry) => bare(entry.word))).toEqual(wordsOfText(text));
      // Spelt as the text writes them, its punctuation kept (the transcription has none).
      expect(narration.words.map((entry) => entry.word).join(" ")).toBe(
        text.trim().split(/\s+/).join(" "),
      );
      expect(/[.!?]$/.test(narration.words.at(-1)?.word ?? "")).toBe(true);
      expect(narration.words_from).toBe("transcription");
      for (const word of narration.words) {
        expect(word.start).toBeLessThan(word.end);
        expect(word.start).toBeGreaterThanOrEqual(0);
        expect(word.end).toBeLessThanOrEqual(narration.duration);
      }
    }
    const stats = service.simulator.stats();
    expect(stats.speech.requests).toBe(3);
    expect(stats.transcriptions.recognised).toBe(3);
    const ledger = ledgerOf(readJournal(join(result.runDir, "journal.jsonl")));
    // The narration's figures are the service's charges for speech and its word timings.
    expect(ledger.steps.narration?.credits).toBe(
      stats.creditsByEndpoint.speech + stats.creditsByEndpoint.transcriptions,
    );
    expect(stats.creditsByEndpoint.speech).toBeGreaterThan(0);
    expect(ledger.total.credits).toBe(stats.creditsCharged);
    expect(result.totals.credits).toBe(stats.creditsCharged);
    expect(options.events.some((e) => e.type === "log" && e.level === "warn")).toBe(false);

    // Each clip is as long as its narration, rounded up to a whole second (the model takes 1–8 s).
    const clips = result.steps.clips?.outputs as { id: string }[];
    for (const [index, clip] of clips.entries()) {
      const job = await service.client.videos.retrieve(clip.id);
      const narration = narrations[index] as Narration;
      expect(Number(job.seconds)).toBe(Math.ceil(narration.duration));
      expect(Number(job.seconds)).toBeGreaterThanOrEqual(narration.duration);
    }

    // The same narrations asked for again are served from the cache, word timings and all;
    // an entry cached when words were kept without punctuation is spelt as the text writes them.
    let stripped = 0;
    for (const file of entryFiles(join(service.root, "cache"))) {
      const entry = JSON.parse(readFileSync(file, "utf8"));
      if (entry.kind !== "speech") continue;
      entry.outputs.words = entry.outputs.words.map((word: { word: string }) => ({
        ...word,
        word: bare(word.word),
      }));
      writeFileSync(file, JSON.stringify(entry));
      stripped += 1;
    }
    expect(stripped).toBe(3);
    const again = await runPipeline(pipeline, service.options({ catalogs }));
    expect(again.status).toBe("succeeded");
    const after = service.simulator.stats();
    expect(after.speech.requests).toBe(3);
    expect(after.transcriptions.requests).toBe(3);
    const cached = again.steps.narration?.outputs as Narration[];
    expect(cached.map((entry) => entry.words)).toEqual(narrations.map((entry) => entry.words));
    for (const [index, entry] of cached.entries()) {
      expect(entry.file).toBe(join(again.runDir, "audio", `narration-${index}.wav`));
      expect(existsSync(entry.file)).toBe(true);
    }
    expect(again.totals.savedCredits).toBeGreaterThanOrEqual(
      stats.creditsByEndpoint.speech + stats.creditsByEndpoint.transcriptions,
    );
  });

  it("plans one speech and one transcription per scene, priced where the text is known", async () => {
    const loaded = await loadPipeline(pipeline);
    const plan = planPipeline(loaded, { catalogs });
    expect(plan.limits.requests).toMatchObject({ speech: 3, transcriptions: 3 });
    const narration = plan.steps.find((step) => step.id === "narration");
    // The scenes' texts come from the chat: unknown until the run.
    expect(narration?.estimate?.perUnit).toBeUndefined();
    expect(narration?.estimate?.units).toBe(3);

    // A text known before the run is priced: 15 credits per 1,000 characters, rounded up, and
    // the transcription of its expected length (~15 characters a second) at 6 a minute.
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-speech-plan-"));
    const line = "x".repeat(1500);
    writeFileSync(
      join(dir, "line.yaml"),
      `name: line\nsteps:\n  - id: line\n    speech: { model: reel-voice-1, voice: ava, input: "${line}" }\n`,
    );
    const priced = planPipeline(await loadPipeline(join(dir, "line.yaml"), { catalogs }), {
      catalogs,
    });
    // 1,500 characters: 23 for the speech; 100 s of audio: 10 for its word timings.
    expect(priced.steps[0]?.estimate?.perUnit).toBe(23 + 10);
    expect(priced.limits.estimate.credits).toBe(33);
    expect(priced.limits.requests).toEqual({ speech: 1, transcriptions: 1 });
  });

  it("estimates word timings with a warning when no transcription model is offered", async () => {
    // A service that sells speech only: its model list offers no transcription model.
    service = await startTestService({
      timeScale: 0.05,
      profile: { speech_models: { "reel-voice-1": { voices: ["rowan"], formats: ["mp3"] } } },
    });
    const options = service.options({ catalogs: { speech_models: speechModels } });
    const result = await runPipeline(
      {
        name: "estimated",
        steps: [
          {
            id: "line",
            speech: {
              model: "reel-voice-1",
              voice: "rowan",
              input: "Narration sets the timing, word by word.",
              format: "mp3",
            },
          },
        ],
      } as never,
      options,
    );
    expect(result.error).toBeUndefined();
    const line = result.steps.line?.outputs as Narration;
    expect(line.file).toBe(join(result.runDir, "audio", "line-0.mp3"));
    expect(line.words_from).toBe("estimate");
    expect(line.words.map((entry) => entry.word)).toEqual([
      "Narration",
      "sets",
      "the",
      "timing,",
      "word",
      "by",
      "word.",
    ]);
    expect(line.words.at(-1)?.end).toBe(Math.round(line.duration * 1000) / 1000);
    const warning = options.events.find((e) => e.type === "log" && e.level === "warn");
    expect(warning && "message" in warning ? warning.message : "").toContain("estimated");
    expect(service.simulator.stats().transcriptions.requests).toBe(0);
  });

  it("kill -9 while the speech request is held, then resume: each narration is charged once", async () => {
    service = await startTestService({ timeScale: 0.05, faults: "stall@audio.speech:#1:600000" });
    const runDir = join(service.root, "runs", "speaking");
    const run = crashNarration(service, runDir);
    // The intent is durable before the request leaves; the service holds its answer.
    await until(
      () =>
        (service?.simulator.stats().faultsInjected.stall ?? 0) >= 1 &&
        speechFacts(runDir, "speech.intent").length >= 1,
    );
    await run.kill();

    const client = createClient({
      baseURL: service.simulator.url,
      apiKey: service.simulator.apiKey,
      honoursIdempotencyKeys: true,
      retryBaseDelayMs: 5,
      pollIntervalMs: 20,
    });
    const result = await runPipeline(
      undefined,
      service.options({ resume: runDir, cache: false, client, catalogs }),
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const stats = service.simulator.stats();
    expect(stats.speech.requests).toBe(3);
    const ledger = ledgerOf(readJournal(join(runDir, "journal.jsonl")));
    expect(ledger.steps.narration?.credits).toBe(
      stats.creditsByEndpoint.speech + stats.creditsByEndpoint.transcriptions,
    );
    expect(ledger.total.credits).toBe(stats.creditsCharged);
  });

  it("a request whose answer was lost is not sent again when the service does not honour keys", async () => {
    service = await startTestService({ timeScale: 0.05, faults: "stall@audio.speech:#1:600000" });
    const runDir = join(service.root, "runs", "unsettled");
    const run = crashNarration(service, runDir);
    await until(
      () =>
        (service?.simulator.stats().faultsInjected.stall ?? 0) >= 1 &&
        speechFacts(runDir, "speech.intent").length >= 1,
    );
    await run.kill();
    // The items whose request was sent and never answered (the held one at least).
    const answered = new Set(speechFacts(runDir, "speech.done").map((fact) => fact.index));
    const open = new Set(
      speechFacts(runDir, "speech.intent")
        .map((fact) => fact.index)
        .filter((index) => !answered.has(index)),
    );
    expect(open.size).toBeGreaterThanOrEqual(1);
    const intentsBefore = speechFacts(runDir, "speech.intent").length;
    // The test helper's client does not say the service honours keys.
    const result = await runPipeline(undefined, service.options({ resume: runDir, catalogs }));
    expect(result.status).toBe("failed");
    const failed = JSON.stringify(result.steps.narration);
    expect(failed).toContain("request_unsettled");
    expect(failed).toContain("reelsmith resume");
    // No open item journaled a new intent: nothing was sent for it again.
    const intents = speechFacts(runDir, "speech.intent");
    for (const index of open) {
      expect(intents.filter((fact) => fact.index === index)).toHaveLength(1);
    }
    expect(intents.length).toBe(intentsBefore + (3 - answered.size - open.size));
  });
});
