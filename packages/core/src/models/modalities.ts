/**
 * The modalities core knows, declared once: each one's profile section and the `type` words a
 * model list may use for it. Model catalogs, a profile's sections, `GET /v1/models` sorting and
 * the CLI's `models` tables are loops over this list, never lists of the modalities' names.
 *
 * @example
 * modalities.map((modality) => modalitySection(modality)); // ["chat_models", "video_models", …]
 */
export const modalityDeclarations = {
  chat: { typeWords: ["chat", "text", "llm"], summary: "chat completions" },
  video: { typeWords: ["video"], summary: "video clips" },
  image: { typeWords: ["image", "images"], summary: "images and image edits" },
  speech: { typeWords: ["speech", "tts", "text-to-speech"], summary: "speech from text" },
  transcription: {
    typeWords: ["transcription", "transcribe", "stt", "speech-to-text"],
    summary: "words and their times from audio",
  },
} as const satisfies Record<string, { typeWords: readonly string[]; summary: string }>;

/** A modality: what a model makes (`chat`, `video`, `image`, `speech`, `transcription`). */
export type Modality = keyof typeof modalityDeclarations;

/** Every modality, in the order tables and profiles show them. */
export const modalities = Object.keys(modalityDeclarations) as Modality[];

/** A modality's section of a provider profile (`video` → `video_models`). */
export type ModalitySection<M extends Modality = Modality> = `${M}_models`;

/**
 * The provider profile's section that declares a modality's models.
 * @example modalitySection("speech"); // "speech_models"
 */
export function modalitySection<M extends Modality>(modality: M): ModalitySection<M> {
  return `${modality}_models`;
}

/** Every profile section of a model, in the modalities' order. */
export const modalitySections = modalities.map(modalitySection);

/**
 * The modality a `type` word of a model list names (own words only, case-insensitive), else
 * undefined.
 * @example modalityOfTypeWord("TTS"); // "speech"
 */
export function modalityOfTypeWord(word: string): Modality | undefined {
  const lower = word.toLowerCase();
  return modalities.find((modality) =>
    (modalityDeclarations[modality].typeWords as readonly string[]).includes(lower),
  );
}
