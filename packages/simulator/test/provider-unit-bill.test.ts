import { createClient } from "@reelsmith/core";
import { clientOptionsFromProfile, parseProfile } from "@reelsmith/core/profile";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";

// Each dialect bills a model in the unit its profile's provider prices it in: dollars exactly
// (cents stay cents), where credits are billed whole.
const flux = "fal-ai/flux/dev";
const kokoro = "fal-ai/kokoro/american-english";
const kling = "fal-ai/kling-video/v2.1/standard/text-to-video";
const schnell = "black-forest-labs/flux-schnell";

/** A profile whose `dialect` account bills in usd, with no rate to credits. */
function dollarProfile(dialect: "fal" | "replicate" | "reference"): Record<string, unknown> {
  return {
    service: { dialect, base_url: "https://service.invalid", api_key_env: ["SERVICE_KEY"] },
    providers: { dollars: { dialect, api_key_env: ["DOLLARS_KEY"], unit: "usd" } },
    image_models: {
      [dialect === "replicate" ? schnell : flux]: {
        provider: "dollars",
        sizes: ["1024x768", "1024x1024"],
        max_images: 4,
        price: { per_image: 0.05 },
      },
    },
    // Replicate sells no speech here.
    ...(dialect === "replicate"
      ? {}
      : {
          speech_models: {
            [kokoro]: {
              provider: "dollars",
              voices: ["af_heart"],
              formats: ["mp3"],
              price: { per_1000_characters: 15 },
            },
          },
        }),
    video_models: {
      [kling]: {
        provider: "dollars",
        seconds: [5, 10],
        sizes: ["1280x720"],
        image: false,
        price: { per_megapixel_second: 0.01 },
      },
    },
  };
}

let simulator: Simulator | undefined;
afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

async function clientOn(dialect: "fal" | "replicate" | "reference") {
  const profile = dollarProfile(dialect);
  simulator = await startSimulator({ profile, timeScale: 0.01 });
  const client = createClient({
    ...clientOptionsFromProfile(parseProfile(profile)),
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    pollIntervalMs: 10,
  });
  return { client, simulator };
}

describe("a provider priced in usd is billed exactly, never a whole dollar", () => {
  it("fal: $0.05 an image, 20 characters at $15 per 1,000, a 5 s clip at $0.01 a megapixel-second", async () => {
    const { client, simulator } = await clientOn("fal");
    await client.images.generate({ model: flux, prompt: "A lighthouse", size: "1024x768", n: 3 });
    expect(simulator.stats().creditsByEndpoint.images).toBe(0.15);
    await client.audio.speech({ model: kokoro, voice: "af_heart", input: "A lighthouse stands!" });
    expect(simulator.stats().creditsByEndpoint.speech).toBe(0.3);
    await client.videos.createAndWait({
      model: kling,
      prompt: "A sea",
      seconds: 5,
      size: "1280x720",
    });
    // 0.9216 megapixels × 5 s × 0.01.
    expect(simulator.stats().creditsByEndpoint.videos).toBe(0.04608);
    expect(simulator.stats().creditsCharged).toBe(0.49608);
  });

  it("Replicate: $0.05 an image", async () => {
    const { client, simulator } = await clientOn("replicate");
    await client.images.generate({ model: schnell, prompt: "A lighthouse", size: "1024x768" });
    expect(simulator.stats().creditsCharged).toBe(0.05);
  });

  it("the reference dialect reports what it charged in the account's unit (usage.total_credits)", async () => {
    const { client, simulator } = await clientOn("reference");
    const made = await client.images.generate({ model: flux, prompt: "A lighthouse", n: 3 });
    expect(made.usage?.total_credits).toBe(0.15);
    const job = await client.videos.createAndWait({
      model: kling,
      prompt: "A sea",
      seconds: 5,
      size: "1280x720",
    });
    expect(job.usage?.total_credits).toBe(0.04608);
    await vi.waitFor(() => expect(simulator.stats().creditsCharged).toBe(0.19608));
  });
});
