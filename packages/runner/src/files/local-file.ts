import { accessSync, closeSync, constants, openSync, readSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { dataUriImageProblem, imageFileProblem } from "./image-file.js";

/** The formats a step's local file may need to have, read from its bytes. */
export type LocalFileFormat =
  | "image"
  | "pipeline"
  | "subtitles"
  | "audio"
  | "video"
  | "font"
  | "program";

/** Bytes read to tell a format (a subtitles file is read up to this much to find a cue). */
const HEAD_BYTES = 64 * 1024;

function readHead(file: string, bytes = 16): Buffer {
  const head = Buffer.alloc(bytes);
  const fd = openSync(file, "r");
  try {
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

/** An ISO media file (MP4, MOV, M4A): `ftyp` at offset 4. */
const isIsoMedia = (bytes: Uint8Array) => ascii(bytes, 4, 8) === "ftyp";

/** Audio a media tool reads: MP3 (ID3 or a frame), WAV, Ogg, FLAC, AAC (ADTS), M4A. */
function isAudio(bytes: Uint8Array): boolean {
  if (ascii(bytes, 0, 3) === "ID3") return true;
  if (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) return true; // MPEG frame / ADTS
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WAVE") return true;
  if (ascii(bytes, 0, 4) === "OggS" || ascii(bytes, 0, 4) === "fLaC") return true;
  return isIsoMedia(bytes) || isMatroska(bytes);
}

/** Matroska or WebM (EBML header). */
const isMatroska = (bytes: Uint8Array) =>
  bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3;

function isVideo(bytes: Uint8Array): boolean {
  return (
    isIsoMedia(bytes) ||
    isMatroska(bytes) ||
    (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "AVI ")
  );
}

/** TrueType, OpenType or a collection of them. */
function isFont(bytes: Uint8Array): boolean {
  const tag = ascii(bytes, 0, 4);
  return (
    (bytes[0] === 0 && bytes[1] === 1 && bytes[2] === 0 && bytes[3] === 0) ||
    tag === "OTTO" ||
    tag === "true" ||
    tag === "ttcf"
  );
}

const SRT_TIMING = /^\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}/m;

/**
 * Why a subtitles file is not one: not UTF-8 text, or neither WebVTT (`WEBVTT`), ASS/SSA
 * (`[Script Info]`) nor SubRip (a `00:00:01,000 --> 00:00:02,500` timing line).
 */
function subtitlesProblem(file: string): string | undefined {
  const head = readHead(file, HEAD_BYTES);
  if (head.length === 0) return "it is empty";
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(head);
  } catch {
    return "it is not UTF-8 text";
  }
  const body = text.replace(/^\uFEFF/, "");
  if (/^WEBVTT\b/.test(body)) return undefined;
  if (/^\s*\[Script Info\]/i.test(body)) return undefined;
  if (SRT_TIMING.test(body)) return undefined;
  return "it is not a subtitles file: no WEBVTT header, no [Script Info] section and no SubRip timing line (00:00:01,000 --> 00:00:02,500)";
}

function formatProblem(file: string, format: LocalFileFormat): string | undefined {
  switch (format) {
    case "image":
      return imageFileProblem(file);
    case "subtitles":
      return subtitlesProblem(file);
    case "pipeline":
      return undefined; // read and validated as a pipeline of its own
    default: {
      const head = readHead(file);
      if (head.length === 0) return "it is empty";
      const ok =
        format === "audio" ? isAudio(head) : format === "video" ? isVideo(head) : isFont(head);
      const hex = [...head.subarray(0, 8)]
        .map((byte) => byte.toString(16).padStart(2, "0"))
        .join(" ");
      return ok
        ? undefined
        : `its bytes are not ${format === "audio" ? "audio" : format === "video" ? "a video" : "a font"} (they start ${hex})`;
    }
  }
}

/** A local file problem: what is wrong and its code. */
export interface LocalFileProblem {
  code: "file_not_found" | "not_a_file" | "file_unreadable" | "file_format";
  message: string;
}

/** True when a command name is an executable file in one of PATH's folders (PATHEXT on Windows). */
function onPath(name: string): boolean {
  const extensions =
    process.platform === "win32"
      ? ["", ...(process.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")]
      : [""];
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const extension of extensions) {
      try {
        const candidate = join(dir, name + extension);
        if (statSync(candidate).isFile()) {
          if (process.platform !== "win32") accessSync(candidate, constants.X_OK);
          return true;
        }
      } catch {
        // Not here.
      }
    }
  }
  return false;
}

/**
 * Why a local file a step names cannot be used: it does not exist, is not a file, cannot be
 * read, or is not of the format the step needs (read from its bytes). Relative paths resolve
 * from `baseDir`. A URL is not a local file (undefined); a `data:` image URI is checked.
 * @example localFileProblem("music.mp3", "/pipelines", "audio") // { code: "file_format", message: "…" }
 */
export function localFileProblem(
  value: string,
  baseDir: string,
  format: LocalFileFormat | undefined,
  what = "file",
): LocalFileProblem | undefined {
  if (/^https?:/i.test(value)) return undefined;
  if (/^data:/i.test(value)) {
    const reason = format === "image" ? dataUriImageProblem(value) : undefined;
    return reason
      ? { code: "file_format", message: `${what} data URI cannot be sent: ${reason}` }
      : undefined;
  }
  if (format === "program" && !/[\\/]/.test(value)) {
    // A bare command name is looked up on PATH, as the tool's process will.
    return onPath(value)
      ? undefined
      : {
          code: "file_not_found",
          message: `${what} ${value} is not on PATH`,
        };
  }
  const file = isAbsolute(value) ? value : resolve(baseDir, value);
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {
    return { code: "file_not_found", message: `${what} not found: ${value}` };
  }
  if (!isFile)
    return {
      code: "not_a_file",
      message: `${what} ${value} is not a file (a directory or a device)`,
    };
  if (!format || format === "program") return undefined;
  let reason: string | undefined;
  try {
    reason = formatProblem(file, format);
  } catch (error) {
    return {
      code: "file_unreadable",
      message: `${what} ${value} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    };
  }
  const verb = format === "image" ? "cannot be sent" : "cannot be used";
  return reason
    ? { code: "file_format", message: `${what} ${value} ${verb}: ${reason}` }
    : undefined;
}
