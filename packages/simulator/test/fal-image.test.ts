import { createFalClient, ValidationError } from "@fal-ai/client";
import { createClient } from "@reelsmith/core";
import { InvalidRequestError } from "@reelsmith/core/errors";
import { clientOptionsFromProfile, parseProfile } from "@reelsmith/core/profile";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { falImageProfile, fluxEndpoint } from "./fal-fixture.js";

const PNG = "89504e470d0a1a0a";
const submits = (simulator: Simulator) =>
  Object.values(simulator.stats().requests["POST /{endpoint}"] ?? {}).reduce((a, b) => a + b, 0);

describe("fal image endpoints (FLUX) on serve --dialect fal", () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator({ profile: falImageProfile(), timeScale: 0.01 });
  });
  afterAll(async () => {
    await simulator.close();
  });

  /** fal's official client, unchanged but for its base URL. */
  const fal = () =>
    createFalClient({
      credentials: simulator.apiKey,
      requestMiddleware: async (request) => ({
        ...request,
        url: request.url.replace("https://queue.fal.run", simulator.url),
      }),
    });

  it("@fal-ai/client subscribe: images[] with URLs serving PNGs of the size asked, charged per image", async () => {
    const before = simulator.stats().creditsCharged;
    const result = await fal().subscribe(fluxEndpoint, {
      input: { prompt: "A lighthouse at dusk", image_size: "landscape_4_3", num_images: 2 },
      pollInterval: 10,
    });
    const images = (result.data as { images: { url: string; width: number; height: number }[] })
      .images;
    expect(images).toHaveLength(2);
    expect(images[0]).toMatchObject({ width: 1024, height: 768 });
    for (const image of images) {
      const bytes = Buffer.from(await (await fetch(image.url)).arrayBuffer());
      expect(bytes.subarray(0, 8).toString("hex")).toBe(PNG);
    }
    expect(simulator.stats().creditsCharged - before).toBe(6);
  });

  it("@fal-ai/client: a size the model does not draw is fal's 422 on image_size, nothing charged", async () => {
    const before = simulator.stats().creditsCharged;
    const error = await fal()
      .queue.submit(fluxEndpoint, {
        input: { prompt: "A fox", image_size: { width: 333, height: 333 } },
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors[0]?.loc).toEqual(["body", "image_size"]);
    expect(simulator.stats().creditsCharged).toBe(before);
  });

  it("core's client on a fal profile: images.generate goes through fal's queue and gives the PNG's bytes", async () => {
    const client = createClient({
      ...clientOptionsFromProfile(parseProfile(falImageProfile())),
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      pollIntervalMs: 10,
    });
    const before = submits(simulator);
    const made = await client.images.generate({
      model: fluxEndpoint,
      prompt: "The keeper on the cliff",
      size: "1024x1024",
    });
    expect(submits(simulator)).toBe(before + 1);
    expect(made.images).toHaveLength(1);
    expect(
      Buffer.from(made.images[0]?.bytes ?? [])
        .subarray(0, 8)
        .toString("hex"),
    ).toBe(PNG);
    expect(made.images[0]?.url).toContain("/v1/images/files/");

    // Refused before anything is sent: a size the profile's model does not list, base64, edits.
    const refused = async (call: () => Promise<unknown>) => call().catch((error: unknown) => error);
    expect(
      await refused(() =>
        client.images.generate({ model: fluxEndpoint, prompt: "x", size: "333x333" }),
      ),
    ).toBeInstanceOf(InvalidRequestError);
    expect(
      await refused(() =>
        client.images.generate({ model: fluxEndpoint, prompt: "x", response_format: "b64_json" }),
      ),
    ).toBeInstanceOf(InvalidRequestError);
    const edit = await refused(() =>
      client.images.edit({ model: fluxEndpoint, prompt: "x", references: [Buffer.from("png")] }),
    );
    expect(edit).toBeInstanceOf(InvalidRequestError);
    expect((edit as InvalidRequestError).message).toMatch(
      /fal provider makes no image from reference/,
    );
    expect(submits(simulator)).toBe(before + 1);
  });
});
