/** A transcription model as core uses it; a field left out is unknown. */
export interface TranscriptionModelSpec {
  id: string;
  description?: string;
  wordTimestamps?: boolean;
  price?: { perMinute: number };
}
