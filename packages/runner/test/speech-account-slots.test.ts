import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { routeClients } from "@reelsmith/core";
import { speechModels, transcriptionModels } from "@reelsmith/simulator/catalog";
import { afterEach, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const catalogs = { speech_models: speechModels, transcription_models: transcriptionModels };

/** Four narrations, each timed by a transcription: eight paid requests of one account. */
const voices = `name: voices
steps:
  - id: voices
    for_each:
      - The fox runs home before the rain.
      - The paper boat sails down the street.
      - The storm passes over the quiet town.
      - A bird sings on the wet roof at dawn.
    speech:
      model: reel-voice-1
      voice: ava
      input: \${{ item }}
      words: { model: reel-transcribe-1 }
`;

describe("a provider account's max_concurrent_jobs holds a speech step's transcriptions", () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("one request of the account at a time, voices and transcriptions together, with 1 place", async () => {
    service = await startTestService({ timeScale: 0.05 });
    const file = join(service.root, "voices.yaml");
    writeFileSync(file, voices);
    // Both models served by the account "voice" (this simulator), which takes one job at once.
    const client = routeClients({
      fallback: service.client,
      accounts: { voice: service.client },
      models: new Map([
        ["reel-voice-1", "voice"],
        ["reel-transcribe-1", "voice"],
      ]),
    });
    const result = await runPipeline(
      file,
      service.options({ client, catalogs, accountLimits: { voice: 1 }, cache: false }),
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const stats = service.simulator.stats();
    expect(stats.speech.requests).toBe(4);
    expect(stats.transcriptions.requests).toBe(4);
    const narrations = (result.steps.voices?.outputs ?? []) as { words_from: string }[];
    expect(narrations.map((narration) => narration.words_from)).toEqual(
      Array(4).fill("transcription"),
    );
    expect(stats.requestsInFlight).toBe(0);
    expect(stats.peakConcurrentRequests).toBe(1);
  });
});
