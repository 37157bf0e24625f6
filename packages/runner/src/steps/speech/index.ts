import { ANY_PART, defineStepKind, loadOnce } from "../define-step-kind.js";
import { checkSpeechStep } from "./speech-check.js";
import { defaultSpeechPath } from "./speech-files.js";
import { speechOutputType } from "./speech-outputs.js";
import { planSpeech } from "./speech-plan.js";
import type { SpeechStepSpec } from "./speech-schema.js";
import { respellWords } from "./word-timings.js";

/** Its `run` (and request check), loaded on first use. */
const speechStep = loadOnce(() => import("./speech-step.js"));

export * from "./speech-check.js";
export type { SpeechStepSpec } from "./speech-schema.js";

/**
 * The `speech` step kind: a narration spoken by the service (through its provider's speech side) into
 * the run directory, its duration probed and its words timed (a transcription with word
 * timestamps, checked against the text, else an estimate with a warning). Both requests
 * are priced, reserved within the budget, journaled before they are sent and counted once.
 * Its schema and its `run` load on first use.
 *
 * @example
 * ```ts
 * speechKind.plan({ model: "reel-voice-1", input: "Hello." }, {}); // { requests: { speech: 1 } }
 * ```
 */
export const speechKind = defineStepKind<SpeechStepSpec>({
  kind: "speech",
  schema: async () => (await import("./speech-schema.js")).SpeechStepSchema,
  defaultsSchema: async () => (await import("./speech-schema.js")).SpeechDefaultsSchema,
  // Paid requests of the account, answered at once: they wait on its request queue.
  queue: "chat",
  // A provider account's speech counts within its `max_concurrent_jobs`, with its clips.
  accountQueue: "jobs",
  outputs: () => speechOutputType,
  outputHints: {
    words: "a speech step's `words` is a list of `{ word, start, end }` (seconds)",
  },
  check: checkSpeechStep,
  // `words.model`: the transcription model that times the words, when the step names one.
  models: [
    { field: "model", catalog: "speech_models" },
    { field: "words.model", catalog: "transcription_models" },
  ],
  plan: planSpeech,
  writes: (spec, stepId) => [
    typeof spec.output === "string"
      ? spec.output
      : defaultSpeechPath(stepId, ANY_PART, typeof spec.format === "string" ? spec.format : "wav"),
  ],
  summary: (spec) =>
    `${spec.model ?? ""} ${spec.voice ?? ""}: ${String(spec.input ?? "")
      .replace(/\s+/g, " ")
      .slice(0, 60)}`,
  // The same narration asked for again is reused (with its word timings) wherever this run
  // wants it written.
  cache: {
    ignore: ["output"],
    placeFiles: (spec, { stepId, index }) => ({
      file:
        spec.output ??
        defaultSpeechPath(stepId, index, typeof spec.format === "string" ? spec.format : "wav"),
    }),
    // Words cached before they kept the text's punctuation are spelt as the text writes them.
    revive: (outputs, spec) => respellWords(outputs, spec.input),
  },
  report: { role: "media", work: "speech" },
  run: async (spec, context) => (await speechStep()).runSpeechStep(spec, context),
});
