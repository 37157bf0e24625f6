import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { speechModels, transcriptionModels } from "@reelsmith/simulator/catalog";
import { afterAll, beforeAll, expect, it } from "vitest";
import { followRun, submitRun } from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { type Scenario, startScenario } from "./helpers/scenario.js";

/** Four narrations, each timed by a transcription: eight paid requests of the voice account. */
const voices = {
  name: "voices",
  steps: [
    {
      id: "voices",
      for_each: [
        "The fox runs home before the rain.",
        "The paper boat sails down the street.",
        "The storm passes over the quiet town.",
        "A bird sings on the wet roof at dawn.",
      ],
      speech: {
        model: "reel-voice-1",
        voice: "ava",
        input: "${{ item }}",
        words: { model: "reel-transcribe-1" },
      },
    },
  ],
};

let database: TestDatabase;
let scenario: Scenario | undefined;
let voice: Simulator | undefined;
beforeAll(async () => {
  database = await startTestDatabase();
});
afterAll(async () => {
  await scenario?.close();
  await voice?.close();
  await database?.stop();
});

it("an account's max_concurrent_jobs holds its transcriptions with its voices, across two workers", async () => {
  // The voice account is a simulator of its own, whose key each worker reads from VOICE_KEY.
  voice = await startSimulator({ timeScale: 0.05 });
  scenario = await startScenario(database.url, 2, { timeScale: 0.05 }, { VOICE_KEY: voice.apiKey });
  const { coordinator, simulator } = scenario;
  const { runId } = await submitRun(coordinator, {
    pipeline: voices,
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    artifacts: scenario.artifacts,
    cache: false,
    accounts: [
      {
        name: "voice",
        baseURL: voice.url,
        client: { dialect: "reference" },
        apiKeyEnv: ["VOICE_KEY"],
        maxConcurrentJobs: 1,
      },
    ],
    models: { "reel-voice-1": "voice", "reel-transcribe-1": "voice" },
    catalogs: { speech_models: speechModels, transcription_models: transcriptionModels },
  });
  const result = await followRun(coordinator, runId);
  expect(result.error).toBeUndefined();
  expect(result.status).toBe("succeeded");
  const stats = voice.stats();
  expect(stats.speech.requests).toBe(4);
  expect(stats.transcriptions.requests).toBe(4);
  expect(stats.requestsInFlight).toBe(0);
  // One request of the account at a time, whichever worker sent it.
  expect(stats.peakConcurrentRequests).toBe(1);
  // Nothing at the default service.
  expect(simulator.stats().speech.requests + simulator.stats().transcriptions.requests).toBe(0);
});
