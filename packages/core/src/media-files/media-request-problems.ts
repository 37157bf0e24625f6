import type { SpeechModelSpec } from "../audio/speech-model-spec.js";
import type { TranscriptionModelSpec } from "../audio/transcription-model-spec.js";
import type { RequestProblem } from "../errors/invalid-request-error.js";
import type { ImageModelSpec } from "../images/image-model-spec.js";

function known<T extends { id: string }>(
  models: readonly T[] | null | undefined,
  id: string,
  kind: string,
  problems: RequestProblem[],
): T | undefined {
  if (!models) return undefined;
  const model = models.find((entry) => entry.id === id);
  if (!model) {
    problems.push({
      field: "model",
      message: `unknown ${kind} model ${JSON.stringify(id)}; the profile lists ${models.map((entry) => entry.id).join(", ") || "none"}`,
    });
  }
  return model;
}

/**
 * What is wrong with an image request, before anything is sent: an empty prompt, `n` below 1
 * or over the model's most, a size it does not draw, more references than it takes (checked
 * against `models` when given, e.g. `imageModelsFromProfile(profile)`).
 *
 * @example
 * imageRequestProblems({ model: "img", prompt: "", n: 0 }, 0, undefined); // two problems
 */
export function imageRequestProblems(
  params: { model: string; prompt: string; size?: string; n?: number },
  references: number | undefined,
  models: readonly ImageModelSpec[] | null | undefined,
): RequestProblem[] {
  const problems: RequestProblem[] = [];
  if (typeof params.model !== "string" || params.model === "")
    problems.push({ field: "model", message: "expected a model id" });
  if (typeof params.prompt !== "string" || params.prompt.trim() === "")
    problems.push({ field: "prompt", message: "expected a non-empty prompt" });
  const n = params.n ?? 1;
  if (!Number.isInteger(n) || n < 1)
    problems.push({ field: "n", message: `expected a whole number from 1; got ${n}` });
  if (references !== undefined && references < 1)
    problems.push({ field: "references", message: "an edit needs at least one reference image" });
  const model = known(models, params.model, "image", problems);
  if (model?.maxImages !== undefined && n > model.maxImages)
    problems.push({
      field: "n",
      message: `${model.id} makes at most ${model.maxImages} images per request; got ${n}`,
    });
  if (
    model?.sizes &&
    params.size !== undefined &&
    params.size !== "auto" &&
    !model.sizes.includes(params.size)
  )
    problems.push({
      field: "size",
      message: `${model.id} draws ${model.sizes.join(", ")}; got ${params.size}`,
    });
  if (
    model?.maxReferences !== undefined &&
    references !== undefined &&
    references > model.maxReferences
  )
    problems.push({
      field: "references",
      message: `${model.id} takes at most ${model.maxReferences} reference images; got ${references}`,
    });
  return problems;
}

/**
 * What is wrong with a speech request, before anything is sent (the voice and format checked
 * against `models` when given).
 *
 * @example
 * speechRequestProblems({ model: "tts", input: "", voice: "x" }, undefined); // [{ field: "input", … }]
 */
export function speechRequestProblems(
  params: { model: string; input: string; voice: string; response_format?: string; speed?: number },
  models: readonly SpeechModelSpec[] | null | undefined,
): RequestProblem[] {
  const problems: RequestProblem[] = [];
  if (typeof params.model !== "string" || params.model === "")
    problems.push({ field: "model", message: "expected a model id" });
  if (typeof params.input !== "string" || params.input.trim() === "")
    problems.push({ field: "input", message: "expected a non-empty input text" });
  if (typeof params.voice !== "string" || params.voice === "")
    problems.push({ field: "voice", message: "expected a voice" });
  if (params.speed !== undefined && !(params.speed >= 0.25 && params.speed <= 4))
    problems.push({
      field: "speed",
      message: `expected a number from 0.25 to 4; got ${params.speed}`,
    });
  const model = known(models, params.model, "speech", problems);
  if (model?.voices && !model.voices.includes(params.voice))
    problems.push({
      field: "voice",
      message: `${model.id} speaks with ${model.voices.join(", ")}; got ${params.voice}`,
    });
  if (
    model?.formats &&
    params.response_format !== undefined &&
    !model.formats.includes(params.response_format)
  )
    problems.push({
      field: "response_format",
      message: `${model.id} answers in ${model.formats.join(", ")}; got ${params.response_format}`,
    });
  return problems;
}

/**
 * What is wrong with a transcription request, before anything is sent (word timings checked
 * against `models` when given).
 *
 * @example
 * transcriptionRequestProblems({ model: "stt", timestamp_granularities: ["word"], response_format: "json" }, undefined);
 */
export function transcriptionRequestProblems(
  params: { model: string; response_format?: string; timestamp_granularities?: readonly string[] },
  models: readonly TranscriptionModelSpec[] | null | undefined,
): RequestProblem[] {
  const problems: RequestProblem[] = [];
  if (typeof params.model !== "string" || params.model === "")
    problems.push({ field: "model", message: "expected a model id" });
  const granularities = params.timestamp_granularities ?? [];
  if (granularities.length > 0 && (params.response_format ?? "verbose_json") !== "verbose_json")
    problems.push({
      field: "timestamp_granularities",
      message: "word or segment timings need response_format verbose_json",
    });
  const model = known(models, params.model, "transcription", problems);
  if (model?.wordTimestamps === false && granularities.includes("word"))
    problems.push({
      field: "timestamp_granularities",
      message: `${model.id} gives no word timestamps`,
    });
  return problems;
}
