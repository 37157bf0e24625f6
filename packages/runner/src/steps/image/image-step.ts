import { existsSync } from "node:fs";
import { basename } from "node:path";
import { clientForModel, type ImageResult, type ReelsmithClient } from "@reelsmith/core";
import { AmbiguousSubmissionError, InvalidRequestError } from "@reelsmith/core/errors";
import type { ImageModelSpec } from "@reelsmith/core/profile";
import { executionExtras } from "../../executor/execution-context.js";
import { unitIdempotencyKey } from "../../executor/unit-idempotency-key.js";
import { chargeInModelUnit } from "../../plan/price-units.js";
import type { RequestCheckContext, StepRunContext } from "../step-kind.js";
import { expectedImageCredits } from "./image-check.js";
import { imagePaths } from "./image-files.js";
import { imageModelsOf } from "./image-models.js";
import { referencesOf } from "./image-references.js";
import type { ImageStepSpec } from "./image-schema.js";
import { UnsettledImageRequestError } from "./unsettled-image-request-error.js";

/** Times a request whose answer was lost is sent again with its key (to a service that honours it). */
const RESEND_ATTEMPTS = 3;

interface ImageRequest {
  model: string;
  prompt: string;
  n: number;
  size?: string;
  quality?: string;
}

/**
 * Runs one image step (or fan-out item): checks the request against the model's limits,
 * reserves its price, journals its intent (durable) before it is sent with an idempotency
 * key, saves the images into the run directory, and counts its charge once (keyed). A
 * resumed unit whose answer was lost sends it again with the same key when the service
 * honours keys, else fails saying how to reconcile; one whose answer was journaled is not
 * sent again.
 * @example const { files } = await runImageStep({ model: "reel-image-1", prompt: "a keeper", n: 2 }, context);
 */
export async function runImageStep(
  spec: ImageStepSpec,
  context: StepRunContext,
): Promise<Record<string, unknown>> {
  const { stepId, index, journal, signal } = context;
  const extras = executionExtras(context);
  const request = requestOf(spec);
  const client = clientForModel(context.client as ReelsmithClient, request.model);
  const model = imageModelsOf(extras?.catalogs)?.find((entry) => entry.id === request.model);
  const references = await referencesOf(
    spec.references ?? [],
    extras?.pipelineDir ?? process.cwd(),
    signal,
  );
  assertRequest(request, references.length, imageModelsOf(extras?.catalogs), model);
  const targets = imagePaths(spec, stepId, index, request.n).map((path) =>
    context.resolveOutputPath(path),
  );
  const expected = expectedImageCredits(model, request.n);
  const budget = extras?.budget;

  const completed = journal.recall("image.completed");
  if (completed && targets.every((file) => existsSync(file))) {
    // Answered and saved before a kill: only its charge is counted, if the kill came first.
    await charge(context, completed);
    return outputsOf(completed, targets);
  }

  const intent = journal.recall("image.intent");
  let key: string;
  let submission: number;
  if (intent && intent.settled !== true && typeof intent.idempotencyKey === "string") {
    // Sent before, its answer lost: settled before anything new is sent.
    key = intent.idempotencyKey;
    submission = Number(intent.submission ?? 1) || 1;
    if (!client.honoursIdempotencyKeys && !extras?.resubmitLostJobs) {
      throw new UnsettledImageRequestError(stepId, index, key);
    }
    if (!client.honoursIdempotencyKeys) {
      // The user accepted a second charge: a new submission under a new key.
      submission += 1;
      key = unitIdempotencyKey({
        runId: runIdOf(context),
        step: stepId,
        index,
        submission,
        take: context.take,
      });
    }
  } else {
    submission = Number(intent?.submission ?? 0) + 1;
    key = unitIdempotencyKey({
      runId: runIdOf(context),
      step: stepId,
      index,
      submission,
      take: context.take,
    });
  }
  // Within a place of its account (its `max_concurrent_jobs`) from its reservation to its answer.
  const result = await context.slot(async (): Promise<ImageResult> => {
    signal.throwIfAborted();
    context.stopSignal?.throwIfAborted();
    await budget?.assertCanSubmit({
      key,
      request: { ...request },
      ...(expected === undefined ? {} : { credits: expected }),
    });
    if (context.stopSignal?.aborted) {
      await budget?.release?.({ key });
      context.stopSignal.throwIfAborted();
    }
    try {
      return await send(client, request, references, targets, key, submission, context);
    } catch (error) {
      // Refused (the service answered): nothing was made, its reservation is given back.
      if (typeof (error as { status?: unknown })?.status === "number") {
        await journal.record("image.intent", { idempotencyKey: key, submission, settled: true });
        await budget?.release?.({ key });
      }
      throw error;
    }
  });
  // Counted in its account's unit: what the provider reports it cost, else the model's price;
  // an amount in a unit with no rate to credits is totalled in that unit.
  const charged = chargeInModelUnit(
    extras?.catalogs,
    request.model,
    Number(result.usage?.total_credits),
    (priced, unit) =>
      expectedImageCredits(
        imageModelsOf(priced)?.find((entry) => entry.id === request.model),
        request.n,
        unit,
      ),
  );
  const fact = {
    ...(charged.otherUnits ? { otherUnits: charged.otherUnits } : {}),
    idempotencyKey: key,
    files: result.files,
    credits: charged.credits,
    creditsFrom: charged.creditsFrom ?? (charged.otherUnits ? "price" : "unknown"),
    size: result.size ?? request.size ?? "",
    ...(result.revised_prompt === undefined ? {} : { revised_prompt: result.revised_prompt }),
  };
  await journal.record("image.completed", fact);
  await charge(context, fact);
  return outputsOf(fact, result.files);
}

/**
 * Checks one unit's evaluated request as `runImageStep` does before sending anything: its
 * reference files are images, and its model, size, `n` and number of references are within
 * what the catalog says (a retake's request is checked so before it is journaled).
 * @example await checkImageRequest({ model: "reel-image-1", prompt: "x", size: "640x480" }, { pipelineDir }); // throws: size
 */
export async function checkImageRequest(
  spec: ImageStepSpec,
  context: RequestCheckContext,
): Promise<void> {
  const request = requestOf(spec);
  const models = imageModelsOf(context.catalogs);
  const references = await referencesOf(
    spec.references ?? [],
    context.pipelineDir,
    new AbortController().signal,
    { fetchRemote: false },
  );
  assertRequest(
    request,
    references.length,
    models,
    models?.find((entry) => entry.id === request.model),
  );
}

/** Sends the request (journaled first), sending it again with its key when its answer is lost and the service honours keys. */
async function send(
  client: ReelsmithClient,
  request: ImageRequest,
  references: (string | Uint8Array)[],
  targets: string[],
  key: string,
  submission: number,
  context: StepRunContext,
): Promise<ImageResult> {
  const options = {
    signal: context.signal,
    idempotencyKey: key,
    to: (at: number) => targets[at] ?? targets[0] ?? "",
  };
  for (let attempt = 1; ; attempt++) {
    // Durable before the request leaves: a kill from here on finds it and settles it.
    await context.journal.record("image.intent", {
      idempotencyKey: key,
      submission,
      sinceMs: Date.now(),
    });
    try {
      return references.length > 0
        ? await client.images.edit({ ...request, references }, options)
        : await client.images.generate(request, options);
    } catch (error) {
      if (!AmbiguousSubmissionError.isInstance(error)) throw error;
      if (!client.honoursIdempotencyKeys) {
        throw new UnsettledImageRequestError(context.stepId, context.index, key, error);
      }
      if (attempt >= RESEND_ATTEMPTS) throw error;
    }
  }
}

/** Counts a journaled answer's charge once (keyed by its idempotency key) and settles its reservation. */
async function charge(context: StepRunContext, fact: Record<string, unknown>): Promise<void> {
  const key = String(fact.idempotencyKey);
  const credits = Number(fact.credits) || 0;
  const files = Array.isArray(fact.files) ? fact.files.length : 1;
  const otherUnits = fact.otherUnits as Record<string, number> | undefined;
  const counted = await context.ledger.record({
    totals: { credits, made: { images: files }, ...(otherUnits ? { otherUnits } : {}) },
    ...(fact.creditsFrom === "service" || fact.creditsFrom === "price"
      ? { creditsFrom: fact.creditsFrom }
      : {}),
    key: `charged:${key}`,
  });
  if (counted) await executionExtras(context)?.budget?.spend(credits, { key });
}

function outputsOf(
  fact: Record<string, unknown>,
  files: readonly string[],
): Record<string, unknown> {
  return {
    file: files[0],
    files: [...files],
    size: String(fact.size ?? ""),
    revised_prompt: String(fact.revised_prompt ?? ""),
    credits: Number(fact.credits) || 0,
  };
}

function runIdOf(context: StepRunContext): string {
  return executionExtras(context)?.runId ?? basename(context.runDir);
}

function requestOf(spec: ImageStepSpec): ImageRequest {
  const request: ImageRequest = {
    model: String(spec.model ?? ""),
    prompt: String(spec.prompt ?? ""),
    n: spec.n === undefined ? 1 : Number(spec.n),
  };
  if (spec.size !== undefined && spec.size !== null && spec.size !== "")
    request.size = String(spec.size);
  if (spec.quality !== undefined) request.quality = String(spec.quality);
  return request;
}

/** Refuses, before anything is paid, a request the model cannot take (its values came from expressions). */
function assertRequest(
  request: ImageRequest,
  references: number,
  models: readonly ImageModelSpec[] | undefined,
  model: ImageModelSpec | undefined,
): void {
  const refuse = (field: string, message: string): never => {
    throw new InvalidRequestError(field, message);
  };
  if (request.model === "")
    refuse("model", "no image model: set `model` or `defaults.image.model`");
  if (request.prompt.trim() === "") refuse("prompt", "the image prompt is empty");
  if (!Number.isInteger(request.n) || request.n < 1)
    refuse("n", `n must be a whole number from 1; it is ${request.n}`);
  if (models && !model)
    refuse(
      "model",
      `unknown image model \`${request.model}\`; known image models: ${models.map((entry) => entry.id).join(", ")}`,
    );
  if (!model) return;
  if (model.maxImages !== undefined && request.n > model.maxImages)
    refuse(
      "n",
      `${model.id} makes at most ${model.maxImages} images per request; n is ${request.n}`,
    );
  if (request.size && request.size !== "auto" && model.sizes && !model.sizes.includes(request.size))
    refuse("size", `${model.id} does not draw ${request.size}; it draws ${model.sizes.join(", ")}`);
  if (model.maxReferences !== undefined && references > model.maxReferences)
    refuse(
      "references",
      `${model.id} takes at most ${model.maxReferences} reference images; ${references} are given`,
    );
}
