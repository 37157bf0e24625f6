import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { type CliProcess, startCli } from "./cli-process.js";

/** The many-accounts fixture: chat and images from the service, clips from fal, voice from ElevenLabs. */
export const FIXTURE = fileURLToPath(new URL("../fixtures/multi/", import.meta.url));
export const PROFILE = path.join(FIXTURE, "reelsmith.config.yaml");
export const PIPELINE = path.join(FIXTURE, "pipeline.yaml");
/** The fixture's narration, whose characters ElevenLabs charges. */
export const NARRATION = "A storm, over the harbour! The lamps went out, one by one.";
/**
 * The fixture's dollars at fal, exactly (cents are never rounded up to a whole dollar): two
 * 5 s clips at 0.05 a second, a poster at 0.05, a 20-character tagline at 15 per 1,000.
 */
export const FAL_USD = 0.85;
/** The fixture's models at fal, each priced in dollars. */
export const FAL_MODELS = [
  "fal-ai/kling-video/v2.1/standard/text-to-video",
  "fal-ai/flux/dev",
  "fal-ai/kokoro/american-english",
];

export type Dialect = "reference" | "fal" | "elevenlabs";
export type Served = { process: CliProcess; url: string; dialect: Dialect };
/** What `/_simulator/stats` answers, as these tests read it. */
export type Stats = {
  requests: Record<string, Record<string, number>>;
  videoJobs: { created: number };
  images: { requests: number };
  speech: { requests: number; characters: number };
  transcriptions: { requests: number };
  chatCompletions: number;
  creditsCharged: number;
  peakConcurrentJobs: number;
  jobsInFlight: number;
  peakConcurrentRequests: number;
  requestsInFlight: number;
};

/**
 * One `reelsmith serve --dialect …` per account of the fixture, each with its own key
 * (`<prefix>-<dialect>-key-…`), and each server's own counts asked with its own auth form.
 */
export function multiProviderServers(prefix: string, timeScale: string) {
  const keys: Record<Dialect, string> = {
    reference: `${prefix}-reference-key-0123456789`,
    fal: `${prefix}-fal-key-0123456789`,
    elevenlabs: `${prefix}-elevenlabs-key-0123456789`,
  };
  /** `reelsmith serve --dialect <dialect>` serving the fixture's models, and where it listens. */
  async function serve(dialect: Dialect, cwd: string): Promise<Served> {
    const args = ["serve", "--dialect", dialect, "--config", PROFILE];
    const process = startCli([...args, "--time-scale", timeScale, "--api-key", keys[dialect]], {
      cwd,
    });
    await process.waitFor((output) => output.stdout.includes("Press Ctrl-C to stop."));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(process.output.stdout)?.[1];
    if (!url) throw new Error(`no URL in:\n${process.output.stdout}`);
    return { process, url, dialect };
  }
  /** Each server's own count, asked with its own auth form. */
  async function stats(served: Served): Promise<Stats> {
    const headers: Record<string, string> = {
      reference: { authorization: `Bearer ${keys.reference}` },
      fal: { authorization: `Key ${keys.fal}` },
      elevenlabs: { "xi-api-key": keys.elevenlabs },
    }[served.dialect];
    const response = await fetch(`${served.url}/_simulator/stats`, { headers });
    expect(response.status).toBe(200);
    return (await response.json()) as Stats;
  }
  return { keys, serve, stats };
}

/** Requests a server answered that could be paid (every POST; a model list is free). */
export function paidRequests(state: Stats): number {
  return Object.entries(state.requests)
    .filter(([route]) => route.startsWith("POST "))
    .reduce((sum, [, byStatus]) => sum + Object.values(byStatus).reduce((a, b) => a + b, 0), 0);
}
