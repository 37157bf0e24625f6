import { Mp3Encoder } from "@breezystack/lamejs";
import { encodeWav, type Pcm } from "./wav.js";

/** The content type of each format the simulator encodes speech in. */
export const audioContentTypes: Readonly<Record<string, string>> = Object.freeze({
  mp3: "audio/mpeg",
  wav: "audio/wav",
  pcm: "audio/pcm",
});

/** Samples an MP3 decoder plays before the first encoded one: LAME's 576 plus the decoder's 529. */
const mp3DelaySamples = 576 + 529;

/**
 * Seconds of silence a decoder plays before the first sample of `format` (MP3 without a gapless
 * header: about 0.07 s at 16 kHz); word timings of that format are shifted by it.
 *
 * @example
 * decoderDelay("mp3", 16000); // 0.0690625
 */
export function decoderDelay(format: string, sampleRate: number): number {
  return format === "mp3" ? mp3DelaySamples / sampleRate : 0;
}

/**
 * Encode mono 16-bit PCM as `wav`, `mp3` (64 kb/s, with the pure-JavaScript LAME port; a
 * decoder plays {@link decoderDelay} of silence first) or `pcm` (raw 16-bit little-endian
 * samples at the PCM's rate, as OpenAI's `pcm` is).
 *
 * @example
 * const bytes = encodeAudio(pcm, "mp3");
 */
export function encodeAudio(pcm: Pcm, format: string): Buffer {
  if (format === "wav") return encodeWav(pcm);
  if (format === "pcm") {
    return Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.length * 2);
  }
  if (format === "mp3") {
    const encoder = new Mp3Encoder(1, pcm.sampleRate, 64);
    const chunks: Uint8Array[] = [];
    const block = 1152 * 16;
    for (let at = 0; at < pcm.samples.length; at += block) {
      chunks.push(encoder.encodeBuffer(pcm.samples.subarray(at, at + block)));
    }
    chunks.push(encoder.flush());
    return Buffer.concat(
      chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length)),
    );
  }
  throw new TypeError(
    `Expected a format among ${Object.keys(audioContentTypes).join(", ")}; got ${format}`,
  );
}
