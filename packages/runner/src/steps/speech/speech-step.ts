import { statSync } from "node:fs";
import {
  clientForModel,
  type ReelsmithClient,
  type SpeechParams,
  type TranscriptionResult,
} from "@reelsmith/core";
import { probeKnown } from "@reelsmith/media";
import { executionExtras } from "../../executor/execution-context.js";
import { probeOutput } from "../../media-probes/known-probes.js";
import { InvalidRequestError } from "../../pipeline/core-shim.js";
import { ownUnitCharge } from "../../plan/price-units.js";
import type { StepRunContext } from "../step-kind.js";
import { sendOnce } from "./send-once.js";
import { defaultSpeechPath } from "./speech-files.js";
import {
  defaultSpeechFormat,
  type SpeechModelLimits,
  speechCredits,
  speechModelsOf,
  transcriptionCredits,
  transcriptionModelsOf,
  wordsModelOf,
} from "./speech-models.js";
import type { SpeechStepSpec } from "./speech-schema.js";
import {
  estimateWordTimings,
  spellAsWritten,
  type TimedWord,
  timingsHold,
  wordsDiffer,
  wordsOf,
} from "./word-timings.js";

/** The request as it is sent, refused here (unpaid) when the model's limits forbid it. */
function speechParamsOf(
  spec: SpeechStepSpec,
  model: SpeechModelLimits | undefined,
  providerFormats: readonly string[] | undefined,
): SpeechParams {
  const format = String(spec.format ?? defaultSpeechFormat(model, providerFormats));
  const params: SpeechParams = {
    model: String(spec.model ?? ""),
    input: String(spec.input),
    voice: String(spec.voice ?? ""),
    response_format: format as SpeechParams["response_format"],
  };
  if (spec.speed !== undefined && spec.speed !== null) params.speed = Number(spec.speed);
  if (spec.instructions) params.instructions = String(spec.instructions);
  if (format !== "wav" && format !== "mp3")
    throw new InvalidRequestError("format", `The speech format is wav or mp3; got ${format}.`);
  if (wordsOf(params.input).length === 0)
    throw new InvalidRequestError("input", "The speech input has no word to speak.");
  if (model?.voices && !model.voices.includes(params.voice))
    throw new InvalidRequestError(
      "voice",
      `${model.id} has no voice ${JSON.stringify(params.voice)}; its voices: ${model.voices.join(", ")}.`,
    );
  if (model?.formats && !model.formats.includes(format))
    throw new InvalidRequestError(
      "format",
      `${model.id} does not answer in ${format}; its formats: ${model.formats.join(", ")}.`,
    );
  if (model?.maxInputCharacters !== undefined && params.input.length > model.maxInputCharacters)
    throw new InvalidRequestError(
      "input",
      `The input is ${params.input.length} characters; ${model.id} speaks at most ${model.maxInputCharacters}. Split it over several items.`,
    );
  return params;
}

const fileIsThere = (file: unknown) => {
  try {
    return typeof file === "string" && statSync(file).size > 0;
  } catch {
    return false;
  }
};

/**
 * Runs one speech step (or fan-out item): speaks `input` into the run directory through the
 * client's speech provider, probes its duration, and times its words: from the speech answer
 * itself where the provider gives them (its alignment), else from a transcription
 * with word timestamps (`POST /v1/audio/transcriptions`) when a transcription model is named
 * or offered, trusted only when it says the input's words in order; otherwise estimated from
 * the text, with a warning saying so. Both requests are paid once (see `sendOnce`).
 * @example const { file, duration, words } = await runSpeechStep({ model: "reel-voice-1", voice: "ava", input: "Hello." }, context);
 */
export async function runSpeechStep(
  spec: SpeechStepSpec,
  context: StepRunContext,
): Promise<Record<string, unknown>> {
  const client = clientForModel(context.client as ReelsmithClient, spec.model);
  const { stepId, index, signal } = context;
  const extras = executionExtras(context);
  const catalogs = extras?.catalogs;
  const voiceModel = speechModelsOf(catalogs)?.find((model) => model.id === spec.model);
  const params = speechParamsOf(spec, voiceModel, client.audio.speechProvider.formats);
  const relative = spec.output ?? defaultSpeechPath(stepId, index, params.response_format);
  const target = context.resolveOutputPath(relative);
  const price = speechCredits(voiceModel, params.input.length);
  const warn = (message: string) =>
    context.emit({ type: "log", level: "warn", step: stepId, message });
  const item = index === undefined ? `step ${stepId}` : `step ${stepId} item ${index}`;

  const spoken = await sendOnce(context, {
    name: "speech",
    label: `${client.audio.speechProvider.name} speech`,
    request: { model: params.model, voice: params.voice, characters: params.input.length },
    expected: price,
    made: { narrations: 1 },
    file: relative,
    // Within a place of the voice's account (its `max_concurrent_jobs`).
    slot: context.slot,
    honoursIdempotencyKeys: client.audio.speechHonoursIdempotencyKeys,
    keyless: client.audio.speechProvider.idempotencyHeader === undefined,
    send: (idempotencyKey) => client.audio.speech(params, { to: target, signal, idempotencyKey }),
    settle: async (result) => {
      const otherUnits = voiceOwnUnits(catalogs, params.model, params.input.length);
      return {
        credits: price ?? 0,
        ...(price !== undefined ? { creditsFrom: "price" as const } : {}),
        ...(otherUnits ? { otherUnits } : {}),
        fact: { file: target, ...(result.words ? { words: result.words } : {}) },
      };
    },
    usable: (fact) => fileIsThere(fact.file),
  });
  const known = await probeKnown(target, { signal });
  extras?.knownProbes?.add(known);
  const duration = known.info.audioDuration ?? known.info.duration;

  let words: TimedWord[] | undefined;
  let credits = spoken.credits;
  // The provider's own alignment, when it gives one that holds: no transcription is paid.
  const aligned = spoken.words as TimedWord[] | undefined;
  if (aligned && !wordsDiffer(params.input, aligned) && timingsHold(aligned, duration)) {
    words = aligned.map(({ word, start, end }) => ({ word, start, end }));
  } else if (aligned) {
    warn(
      `${item}: the word timings the speech answer gives do not match the input or the audio's ${duration.toFixed(2)} s; they are not used.`,
    );
  }
  const wordsModel = words ? undefined : wordsModelOf(spec.words, catalogs);
  if (words) {
    // Timed by the speech answer itself.
  } else if (wordsModel) {
    const timer = transcriptionModelsOf(catalogs)?.find((model) => model.id === wordsModel);
    const heard = await sendOnce(context, {
      name: "words",
      label: "POST /v1/audio/transcriptions",
      request: { model: wordsModel, seconds: duration },
      expected: transcriptionCredits(timer, duration),
      // Within a place of the transcription model's account, as the voice is within its own.
      ...(context.slotOf ? { slot: context.slotOf(wordsModel) } : {}),
      send: (idempotencyKey) =>
        clientForModel(context.client as ReelsmithClient, wordsModel).audio.transcribe(
          { model: wordsModel, file: target, timestamp_granularities: ["word"] },
          { signal, idempotencyKey },
        ),
      settle: async (result: TranscriptionResult) => {
        // Priced on the length the service reports, as it charges (else the probed one).
        const charged = transcriptionCredits(timer, result.duration ?? duration);
        const otherUnits = wordsOwnUnits(catalogs, wordsModel, result.duration ?? duration);
        return {
          credits: charged ?? 0,
          ...(charged !== undefined ? { creditsFrom: "price" as const } : {}),
          ...(otherUnits ? { otherUnits } : {}),
          fact: { model: wordsModel, words: result.words ?? [] },
        };
      },
    });
    credits += heard.credits;
    const timed = (heard.words as TimedWord[] | undefined) ?? [];
    const differ = wordsDiffer(params.input, timed);
    if (differ) {
      warn(
        `${item}: the transcription by ${wordsModel} does not say the input's words (word ${differ.at + 1}: expected ${differ.expected ?? "nothing"}, heard ${differ.heard ?? "nothing"}); its word timings are estimated from the text instead.`,
      );
    } else if (!timingsHold(timed, duration)) {
      warn(
        `${item}: the transcription by ${wordsModel} gives word timings outside the audio's ${duration.toFixed(2)} s; they are estimated from the text instead.`,
      );
    } else {
      // Spelt as the text writes them: a caption keeps the text's punctuation.
      words = spellAsWritten(params.input, timed);
    }
  } else {
    warn(
      spec.words === false
        ? `${item}: word timings are estimated from the text (words: false), not heard.`
        : `${item}: no transcription model is named (words.model) or offered by the profile, so word timings are estimated from the text, not heard.`,
    );
  }
  const wordsFrom = words === undefined ? "estimate" : wordsModel ? "transcription" : "speech";
  return {
    file: target,
    duration,
    words: words ?? estimateWordTimings(params.input, duration),
    words_from: wordsFrom,
    credits,
    probe: probeOutput(known),
  };
}

type Catalogs = Parameters<typeof ownUnitCharge>[0];

/** A voice priced in a unit with no rate to credits: its cost in that unit (totalled apart). */
function voiceOwnUnits(catalogs: Catalogs, model: string, characters: number) {
  return ownUnitCharge(catalogs, model, (priced, unit) =>
    speechCredits(
      speechModelsOf(priced)?.find((entry) => entry.id === model),
      characters,
      unit,
    ),
  );
}

/** A transcription priced in a unit with no rate to credits: its cost in that unit. */
function wordsOwnUnits(catalogs: Catalogs, model: string, seconds: number) {
  return ownUnitCharge(catalogs, model, (priced, unit) =>
    transcriptionCredits(
      transcriptionModelsOf(priced)?.find((entry) => entry.id === model),
      seconds,
      unit,
    ),
  );
}
