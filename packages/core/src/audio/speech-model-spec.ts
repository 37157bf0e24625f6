/** A speech model as core uses it; a field left out is unknown. */
export interface SpeechModelSpec {
  id: string;
  description?: string;
  voices?: readonly string[];
  /** `response_format`s; the first is the default. */
  formats?: readonly string[];
  price?: { per1000Characters: number };
  /**
   * True when its provider's answer times the words (ElevenLabs' alignment): a speech step
   * then needs no transcription for its words, and none is planned.
   */
  wordTimings?: boolean;
}
