import type { FileInput } from "../media-files/file-input.js";

/** Parameters of `client.audio.speech()` (`POST /v1/audio/speech`). */
export interface SpeechParams {
  model: string;
  input: string;
  voice: string;
  /** Default `mp3`. */
  response_format?: "mp3" | "opus" | "aac" | "flac" | "wav" | "pcm";
  /** 0.25 to 4 (default 1). */
  speed?: number;
  instructions?: string;
}

/** What `client.audio.speech()` gives back. */
export interface SpeechResult {
  /** The audio, unless it was written to `to`. */
  bytes?: Uint8Array;
  /** The file written, when `to` was given. */
  file?: string;
  /** Length of the audio in bytes. */
  size: number;
  contentType: string | undefined;
  requestId: string | undefined;
  /** Each word of the input (punctuation kept) with its timing, where the provider gives them. */
  words?: TranscriptWord[];
}

/** Parameters of `client.audio.transcribe()` (`POST /v1/audio/transcriptions`, multipart). */
export interface TranscribeParams {
  model: string;
  /** The audio: a file path, bytes or a Blob. */
  file: FileInput;
  /** Default `verbose_json` when word timings are asked for, else `json`. */
  response_format?: "json" | "verbose_json" | "text" | "srt" | "vtt";
  timestamp_granularities?: readonly ("word" | "segment")[];
  language?: string;
  prompt?: string;
}

/** One word heard, with its start and end in seconds. */
export interface TranscriptWord {
  word: string;
  start: number;
  end: number;
}

/** One segment heard. */
export interface TranscriptSegment {
  id: number;
  start: number;
  end: number;
  text: string;
}

/** What `client.audio.transcribe()` gives back. */
export interface TranscriptionResult {
  /** The text heard (for `srt` and `vtt`, the subtitle file's text). */
  text: string;
  language?: string;
  /** Seconds of audio, when the service says. */
  duration?: number;
  words?: TranscriptWord[];
  segments?: TranscriptSegment[];
  requestId: string | undefined;
}
