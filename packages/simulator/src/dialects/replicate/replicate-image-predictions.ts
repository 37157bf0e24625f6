import { randomBytes } from "node:crypto";
import path from "node:path";
import { chargeInUnit } from "@reelsmith/core/catalog";
import { HttpError } from "../../errors/http-error.js";
import { validateImageRequest } from "../../images/image-request.js";
import { renderImage } from "../../images/render-image.js";
import type { RequestContext, SimulatorContext } from "../../server/context.js";

/** An image prediction, made at once (an image takes the simulator no time). */
interface ImagePrediction {
  id: string;
  model: string;
  input: Record<string, unknown>;
  images: string[];
  createdMs: number;
}

const made = new WeakMap<SimulatorContext, Map<string, ImagePrediction>>();

function predictionsOf(simulator: SimulatorContext): Map<string, ImagePrediction> {
  let map = made.get(simulator);
  if (!map) {
    map = new Map();
    made.set(simulator, map);
  }
  return map;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const ratioOf = (size: string) => {
  const [width = 1, height = 1] = size.split("x").map(Number);
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
};

function refused(message: string, field: string): HttpError {
  return new HttpError(422, message, { param: field, code: "invalid_input" });
}

/**
 * `POST /v1/models/{owner}/{name}/predictions` for an image model the simulator serves (FLUX
 * schnell's input: `prompt`, `aspect_ratio`, `num_outputs`, `output_format`): drawn at once,
 * `succeeded` with `output` a list of image URLs, charged per image. It draws PNG only, so it
 * refuses another `output_format` (Replicate's default, webp, included) rather than serve a
 * PNG under its name. Undefined when the model is no image model.
 */
export async function createImagePrediction(
  context: RequestContext,
  simulator: SimulatorContext,
  model: string,
  input: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const spec = simulator.catalog.imageModels.find((entry) => entry.id === model);
  if (!spec) return undefined;
  const format = input.output_format ?? "webp";
  if (format !== "png")
    throw refused(
      `output_format: the simulator draws PNG only; send output_format "png" (got ${JSON.stringify(format)}).`,
      "output_format",
    );
  let size: string | undefined;
  if (input.aspect_ratio !== undefined) {
    size = spec.sizes.find((entry) => ratioOf(entry) === input.aspect_ratio);
    if (!size)
      throw refused(
        `aspect_ratio: ${model} draws ${[...new Set(spec.sizes.map(ratioOf))].join(", ")}; got ${JSON.stringify(input.aspect_ratio)}.`,
        "aspect_ratio",
      );
  }
  let validated: ReturnType<typeof validateImageRequest>;
  try {
    validated = validateImageRequest(
      { model, prompt: input.prompt, n: input.num_outputs, size, response_format: "url" },
      simulator.catalog.imageModels,
    );
  } catch (error) {
    if (HttpError.isInstance(error) && error.param !== null)
      throw refused(error.message, error.param === "n" ? "num_outputs" : error.param);
    throw error;
  }
  const { request } = validated;
  const images: string[] = [];
  for (let index = 0; index < request.n; index += 1) {
    const png = await simulator.renders(() =>
      renderImage({
        prompt: request.prompt,
        size: request.size,
        index,
        count: request.n,
        seed: simulator.seed,
        directory: path.join(simulator.dataDir, "images", randomBytes(8).toString("hex")),
        signal: context.signal,
      }),
    );
    const id = `img_${randomBytes(12).toString("hex")}`;
    simulator.imageFiles.set(id, png);
    images.push(`${simulator.url}/v1/images/files/${id}.png`);
  }
  simulator.stats.imagesMade(
    spec.id,
    request.n,
    false,
    chargeInUnit(spec.creditsPerImage * request.n, spec.unit),
  );
  const prediction: ImagePrediction = {
    id: randomBytes(13).toString("hex").slice(0, 26),
    model,
    input,
    images,
    createdMs: Date.now(),
  };
  predictionsOf(simulator).set(prediction.id, prediction);
  return imagePredictionJson(prediction, simulator);
}

/** The image prediction of `id` as Replicate shows it, if there is one. */
export function findImagePrediction(
  simulator: SimulatorContext,
  id: string,
): Record<string, unknown> | undefined {
  const prediction = predictionsOf(simulator).get(id);
  return prediction ? imagePredictionJson(prediction, simulator) : undefined;
}

function imagePredictionJson(prediction: ImagePrediction, simulator: SimulatorContext) {
  const at = new Date(prediction.createdMs).toISOString();
  const base = `${simulator.url}/v1/predictions/${prediction.id}`;
  return {
    id: prediction.id,
    model: prediction.model,
    version: "",
    input: prediction.input,
    logs: "",
    output: prediction.images,
    data_removed: false,
    error: null,
    status: "succeeded",
    source: "api",
    created_at: at,
    started_at: at,
    completed_at: at,
    urls: { get: base, cancel: `${base}/cancel` },
    metrics: { predict_time: 0 },
  };
}
