import { outputPathProblem } from "../../pipeline/output-path.js";
import { closest } from "../../pipeline/schema-errors.js";
import type { CheckContext } from "../step-kind.js";
import { defaultSpeechFormat, speechModelsOf, transcriptionModelsOf } from "./speech-models.js";
import type { SpeechStepSpec } from "./speech-schema.js";

const list = (values: readonly string[]) => values.map((value) => `\`${value}\``).join(", ");

/**
 * Static checks of a speech step, against the speech and transcription models the profile
 * (or the built-in simulator) declares: a model and a voice are set; a literal model is
 * known ("did you mean"), its voice one of the model's, its format one the model answers
 * in, its input within the model's longest when it declares one; `words.model` is a known
 * transcription model that gives word timestamps; the output stays in the run directory and
 * ends like its format.
 * @example
 * ```ts
 * checkSpeechStep({ model: "reel-voice-1", voice: "alice", input: "Hi." }, context); // reports ["voice"]
 * ```
 */
export function checkSpeechStep(spec: SpeechStepSpec, context: CheckContext): void {
  const literal = (value: unknown): value is string =>
    typeof value === "string" && context.isLiteral(value);
  const models = speechModelsOf(context.catalogs);
  const named = literal(spec.model) ? models?.find((entry) => entry.id === spec.model) : undefined;
  const format = literal(spec.format)
    ? spec.format
    : spec.format === undefined
      ? defaultSpeechFormat(named)
      : undefined;
  if (spec.output !== undefined) {
    const problem = outputPathProblem(spec.output);
    if (problem) context.report(["output"], problem, { code: "output_path_escapes" });
    else if (
      format !== undefined &&
      !/\}\}\s*$/.test(spec.output) &&
      !spec.output.toLowerCase().endsWith(`.${format}`)
    )
      context.report(["output"], `the audio is ${format}: end the output path with .${format}`, {
        code: "speech_output_extension",
      });
  }
  if (spec.model === undefined) {
    context.report([], "no speech model: set `model` here or `defaults.speech.model`", {
      code: "speech_no_model",
    });
  }
  if (spec.voice === undefined) {
    context.report([], "no voice: set `voice` here or `defaults.speech.voice`", {
      code: "speech_no_voice",
    });
  }
  checkWordsModel(spec, context);
  if (!models || !literal(spec.model)) return;
  const model = models.find((entry) => entry.id === spec.model);
  // An unknown model is the model check's (judgeModelUses): its limits are not checked here.
  if (!model) return;
  if (literal(spec.voice) && model.voices && !model.voices.includes(spec.voice)) {
    const near = closest(spec.voice, model.voices);
    context.report(["voice"], `${model.id} has no voice \`${spec.voice}\``, {
      code: "speech_unknown_voice",
      hint: near ? `did you mean \`${near}\`?` : `its voices: ${list(model.voices)}`,
    });
  }
  if (format !== undefined && model.formats && !model.formats.includes(format)) {
    context.report(
      spec.format === undefined ? ["model"] : ["format"],
      `${model.id} does not answer in ${format}${spec.format === undefined ? " (the default format)" : ""}`,
      { code: "speech_format_unsupported", hint: `its formats: ${list(model.formats)}` },
    );
  }
  if (
    literal(spec.input) &&
    model.maxInputCharacters !== undefined &&
    spec.input.length > model.maxInputCharacters
  ) {
    context.report(
      ["input"],
      `the input is ${spec.input.length} characters; ${model.id} speaks at most ${model.maxInputCharacters}`,
      { code: "speech_input_too_long", hint: "split the text over several steps or items" },
    );
  }
}

function checkWordsModel(spec: SpeechStepSpec, context: CheckContext): void {
  const words = spec.words;
  if (!words || typeof words !== "object") return;
  const id = words.model;
  if (typeof id !== "string" || !context.isLiteral(id)) return;
  const models = transcriptionModelsOf(context.catalogs);
  if (!models) return;
  const model = models.find((entry) => entry.id === id);
  if (!model) {
    // An unknown model is the model check's (judgeModelUses).
  } else if (model.wordTimestamps === false) {
    context.report(["words", "model"], `${model.id} gives no word timestamps`, {
      code: "speech_words_model_untimed",
      hint: "name a transcription model with word_timestamps: true, or set `words: false`",
    });
  }
}
