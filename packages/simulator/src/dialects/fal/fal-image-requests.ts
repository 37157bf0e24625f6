import { randomBytes } from "node:crypto";
import path from "node:path";
import { chargeInUnit } from "@reelsmith/core/catalog";
import { HttpError } from "../../errors/http-error.js";
import { validateImageRequest } from "../../images/image-request.js";
import { renderImage } from "../../images/render-image.js";
import type { RequestContext, SimulatorContext } from "../../server/context.js";

/** An image request on fal's queue, made at once (an image takes the simulator no time). */
export interface FalImageRequest {
  id: string;
  endpoint: string;
  prompt: string;
  seed: number;
  images: { id: string; width: number; height: number }[];
}

const requests = new WeakMap<SimulatorContext, Map<string, FalImageRequest>>();

/** The image requests made on this simulator, by request id. */
export function falImageRequests(simulator: SimulatorContext): Map<string, FalImageRequest> {
  let made = requests.get(simulator);
  if (!made) {
    made = new Map();
    requests.set(simulator, made);
  }
  return made;
}

/** fal's named image sizes (`image_size: "landscape_4_3"`), as pixels. */
const namedSizes: Readonly<Record<string, string>> = {
  square_hd: "1024x1024",
  square: "512x512",
  portrait_4_3: "768x1024",
  portrait_16_9: "576x1024",
  landscape_4_3: "1024x768",
  landscape_16_9: "1024x576",
};

/** A fal input field's error, as FastAPI writes a refused field (`loc`). */
function refused(message: string, field: string): HttpError {
  return new HttpError(422, message, { param: field, code: "value_error" });
}

function sizeOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    const named = namedSizes[value];
    if (!named)
      throw refused(
        `image_size must be one of ${Object.keys(namedSizes).join(", ")} or { width, height }; got ${JSON.stringify(value)}.`,
        "image_size",
      );
    return named;
  }
  const { width, height } = value as { width?: unknown; height?: unknown };
  if (!Number.isInteger(width) || !Number.isInteger(height))
    throw refused("image_size takes whole numbers { width, height }.", "image_size");
  return `${width}x${height}`;
}

/**
 * `POST /{endpoint}` for an image model the simulator serves (FLUX's input: `prompt`,
 * `image_size` named or `{ width, height }`, `num_images`, `seed`): the images are drawn at
 * once and charged per image; the request is `COMPLETED` from its first status. No
 * idempotency key: every request makes, and is charged, anew.
 */
export async function submitFalImage(
  context: RequestContext,
  simulator: SimulatorContext,
  endpoint: string,
  input: Record<string, unknown>,
): Promise<FalImageRequest> {
  let validated: ReturnType<typeof validateImageRequest>;
  try {
    validated = validateImageRequest(
      {
        model: endpoint,
        prompt: input.prompt,
        n: input.num_images,
        // fal's default is landscape_4_3, where the profile's model draws it.
        size:
          sizeOf(input.image_size) ??
          (simulator.catalog.imageModels
            .find((entry) => entry.id === endpoint)
            ?.sizes.includes(namedSizes.landscape_4_3 ?? "")
            ? namedSizes.landscape_4_3
            : undefined),
        response_format: "url",
      },
      simulator.catalog.imageModels,
    );
  } catch (error) {
    if (HttpError.isInstance(error) && error.param !== null) {
      const field = { n: "num_images", size: "image_size" }[error.param] ?? error.param;
      throw refused(error.message.replace(/\bn=/, "num_images="), field);
    }
    throw error;
  }
  const { request, model } = validated;
  const [width = 0, height = 0] = request.size.split("x").map(Number);
  const made: FalImageRequest = {
    id: randomBytes(16).toString("hex"),
    endpoint,
    prompt: request.prompt,
    seed: typeof input.seed === "number" ? input.seed : simulator.seed,
    images: [],
  };
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
    made.images.push({ id, width, height });
  }
  simulator.stats.imagesMade(
    model.id,
    request.n,
    false,
    chargeInUnit(model.creditsPerImage * request.n, model.unit),
  );
  falImageRequests(simulator).set(made.id, made);
  return made;
}

/** A completed image request's output, as FLUX answers it (the images on the "CDN"). */
export function falImageOutput(simulator: SimulatorContext, made: FalImageRequest) {
  return {
    images: made.images.map((image) => ({
      url: `${simulator.url}/v1/images/files/${image.id}.png`,
      width: image.width,
      height: image.height,
      content_type: "image/png",
    })),
    timings: { inference: 0 },
    seed: made.seed,
    has_nsfw_concepts: made.images.map(() => false),
    prompt: made.prompt,
  };
}
