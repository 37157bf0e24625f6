import { createClient } from "@reelsmith/core";
import { InvalidRequestError } from "@reelsmith/core/errors";
import { clientOptionsFromProfile, parseProfile } from "@reelsmith/core/profile";
import Replicate from "replicate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { fluxModel, replicateImageProfile } from "./replicate-fixture.js";

const PNG = "89504e470d0a1a0a";
const SUBMIT = "POST /v1/models/:owner/:name/predictions";
const submits = (simulator: Simulator) =>
  Object.values(simulator.stats().requests[SUBMIT] ?? {}).reduce((a, b) => a + b, 0);

async function isPng(url: string): Promise<boolean> {
  const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
  return bytes.subarray(0, 8).toString("hex") === PNG;
}

describe("Replicate image models (FLUX schnell) on serve --dialect replicate", () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator({ profile: replicateImageProfile(), timeScale: 0.01 });
  });
  afterAll(async () => {
    await simulator.close();
  });

  /** Replicate's official client, unchanged but for its base URL. */
  const replicate = () =>
    new Replicate({ auth: simulator.apiKey, baseUrl: `${simulator.url}/v1`, useFileOutput: false });

  it("replicate.run: output URLs serving PNGs, charged per image; predictions.get shows it succeeded", async () => {
    const before = simulator.stats().creditsCharged;
    const output = (await replicate().run(fluxModel, {
      input: {
        prompt: "A lighthouse at dusk",
        aspect_ratio: "4:3",
        num_outputs: 2,
        output_format: "png",
      },
    })) as string[];
    expect(output).toHaveLength(2);
    for (const url of output) expect(await isPng(url)).toBe(true);
    expect(simulator.stats().creditsCharged - before).toBe(6);
    const created = await replicate().predictions.create({
      model: fluxModel,
      input: { prompt: "A fox", output_format: "png" },
    });
    const got = await replicate().predictions.get(created.id);
    expect(got).toMatchObject({ id: created.id, status: "succeeded", model: fluxModel });
    expect(got.output).toHaveLength(1);
  });

  it("refuses Replicate's default webp and an aspect ratio the model does not draw with a 422 on the input field, nothing charged", async () => {
    const before = simulator.stats().creditsCharged;
    for (const input of [
      { prompt: "A fox" },
      { prompt: "A fox", output_format: "png", aspect_ratio: "9:21" },
    ]) {
      const error = await replicate()
        .predictions.create({ model: fluxModel, input })
        .catch((caught: unknown) => caught);
      expect((error as Error).name).toBe("ApiError");
      expect((error as { response: Response }).response.status).toBe(422);
      expect((error as Error).message).toMatch(/input\.(output_format|aspect_ratio)/);
    }
    expect(simulator.stats().creditsCharged).toBe(before);
  });

  it("core's client on a Replicate profile: images.generate makes one prediction and gives the PNG's bytes", async () => {
    const client = createClient({
      ...clientOptionsFromProfile(parseProfile(replicateImageProfile())),
      baseURL: `${simulator.url}/v1`,
      apiKey: simulator.apiKey,
      pollIntervalMs: 10,
    });
    const before = submits(simulator);
    const made = await client.images.generate({
      model: fluxModel,
      prompt: "The keeper on the cliff",
      size: "1024x576",
    });
    expect(submits(simulator)).toBe(before + 1);
    expect(made.images).toHaveLength(1);
    expect(
      Buffer.from(made.images[0]?.bytes ?? [])
        .subarray(0, 8)
        .toString("hex"),
    ).toBe(PNG);
    const refused = await client.images
      .generate({ model: fluxModel, prompt: "x", response_format: "b64_json" })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect(submits(simulator)).toBe(before + 1);
  });
});
