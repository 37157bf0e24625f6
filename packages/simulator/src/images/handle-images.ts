import { randomBytes } from "node:crypto";
import path from "node:path";
import { chargeInUnit } from "@reelsmith/core/catalog";
import type { ImageModelInfo } from "../catalog/media-models.js";
import { HttpError } from "../errors/http-error.js";
import { fingerprint, type StoredAnswer } from "../server/answer-store.js";
import type { RequestContext, RouteHandler, SimulatorContext } from "../server/context.js";
import { type FormFile, idempotencyKeyOf, readForm } from "../server/read-form.js";
import { sendStored } from "../server/send-stored.js";
import { type ImageRequest, validateImageRequest } from "./image-request.js";
import { renderImage } from "./render-image.js";

/** `POST /v1/images/generations` (JSON): `n` distinct PNGs of the prompt. */
export const handleImageGenerations: RouteHandler = async (context, simulator) => {
  const body = await context.readJson();
  const { request, model } = validateImageRequest(body, simulator.catalog.imageModels);
  const print = fingerprint("images.generations", request);
  await answerImages(context, simulator, request, [], print, model);
};

/**
 * `POST /v1/images/edits` (multipart: `image[]` or `image`, 1 to the model's most references,
 * and the generation's fields): PNGs with the prompt drawn once, and every reference shown as
 * a small inset in the top right corner.
 */
export const handleImageEdits: RouteHandler = async (context, simulator) => {
  const form = await readForm(context, simulator.maxBodyBytes);
  const fields = Object.fromEntries(
    Object.entries(form.fields).map(([name, value]) => [
      name,
      Array.isArray(value) ? value[0] : value,
    ]),
  );
  const { request, model } = validateImageRequest(fields, simulator.catalog.imageModels);
  const references = form.files.filter(
    (file) => file.field === "image[]" || file.field === "image",
  );
  if (references.length === 0) {
    throw new HttpError(
      400,
      "An edit needs at least one reference image: send it as image[] (or image).",
      {
        param: "image",
        code: "missing_image",
      },
    );
  }
  if (references.length > model.maxReferences) {
    throw new HttpError(
      400,
      `${model.id} takes at most ${model.maxReferences} reference image${model.maxReferences === 1 ? "" : "s"}; got ${references.length}.`,
      { param: "image", code: "too_many_images" },
    );
  }
  const print = fingerprint("images.edits", {
    request,
    references: references.map((file) => file.sha256),
  });
  await answerImages(context, simulator, request, references, print, model);
};

async function answerImages(
  context: RequestContext,
  simulator: SimulatorContext,
  request: ImageRequest,
  references: FormFile[],
  print: string,
  model: Pick<ImageModelInfo, "creditsPerImage" | "unit">,
): Promise<void> {
  const { answer, replayed } = await simulator.answers.answer(
    idempotencyKeyOf(context, simulator),
    print,
    async (): Promise<StoredAnswer> => {
      const data: Record<string, unknown>[] = [];
      for (let index = 0; index < request.n; index += 1) {
        const png = await simulator.renders(() =>
          renderImage({
            prompt: request.prompt,
            size: request.size,
            index,
            count: request.n,
            seed: simulator.seed,
            references,
            directory: path.join(simulator.dataDir, "images", randomBytes(8).toString("hex")),
            signal: context.signal,
          }),
        );
        const item: Record<string, unknown> = { revised_prompt: request.prompt };
        if (request.responseFormat === "b64_json") item.b64_json = png.toString("base64");
        else {
          const id = `img_${randomBytes(12).toString("hex")}`;
          simulator.imageFiles.set(id, png);
          item.url = `${simulator.url}/v1/images/files/${id}.png`;
        }
        data.push(item);
      }
      // Whole credits, or the exact amount in the unit a profile prices the model in.
      const credits = chargeInUnit(model.creditsPerImage * request.n, model.unit);
      simulator.stats.imagesMade(request.model, request.n, references.length > 0, credits);
      const json = {
        created: Math.floor(Date.now() / 1000),
        data,
        size: request.size,
        output_format: "png",
        ...(request.quality ? { quality: request.quality } : {}),
        usage: { total_credits: credits },
      };
      return {
        contentType: "application/json; charset=utf-8",
        body: Buffer.from(JSON.stringify(json)),
      };
    },
  );
  await sendStored(context, answer, replayed);
}

/**
 * `GET /v1/images/files/{id}.png`: an image answered as a `url`. Like a provider's signed
 * link, it needs no key: its id is 24 random hex digits.
 */
export const handleImageFile: RouteHandler = async (context, simulator) => {
  const id = (context.params.id ?? "").replace(/\.png$/, "");
  const png = simulator.imageFiles.get(id);
  if (!png) {
    throw new HttpError(404, `No image found with id '${id}'.`, {
      param: "id",
      code: "image_not_found",
    });
  }
  await sendStored(context, { contentType: "image/png", body: png }, false);
};
