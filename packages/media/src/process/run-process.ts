import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { FfmpegError } from "../errors/ffmpeg-error.js";
import { MediaAbortError } from "../errors/media-abort-error.js";

/** What a finished process produced. */
export interface ProcessResult {
  stdout: string;
  stderr: string;
}

/** Options of {@link runProcess}. */
export interface RunProcessOptions {
  signal?: AbortSignal | undefined;
  /** Called with each complete line written to stdout (e.g. `-progress pipe:1`). */
  onStdoutLine?: ((line: string) => void) | undefined;
  /** Keep the whole stdout (ffprobe JSON). Default true. */
  collectStdout?: boolean;
}

const stderrTailChars = 4000;
/** What is kept of a long stderr: its first and last 64 KiB. */
const keptChars = 64 * 1024;

/** A process's stderr, its start and its end kept when it is long. */
function stderrBuffer() {
  let head = "";
  let tail = "";
  let dropped = 0;
  return {
    add(chunk: string) {
      if (head.length < keptChars) {
        const room = keptChars - head.length;
        head += chunk.slice(0, room);
        chunk = chunk.slice(room);
      }
      if (!chunk) return;
      tail += chunk;
      if (tail.length > keptChars * 2) {
        dropped += tail.length - keptChars;
        tail = tail.slice(-keptChars);
      }
    },
    text(): string {
      return dropped > 0 ? `${head}\n[… ${dropped} characters left out …]\n${tail}` : head + tail;
    },
  };
}

/**
 * Run a binary with an argument vector (never a shell), kill it on abort, and reject with
 * {@link FfmpegError} (exit code, stderr tail, args) when it fails.
 *
 * @example
 * const { stdout } = await runProcess("/usr/bin/ffprobe", ["-version"]);
 */
export function runProcess(
  binary: string,
  args: readonly string[],
  options: RunProcessOptions = {},
): Promise<ProcessResult> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(new MediaAbortError({ cause: signal.reason }));
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    // Kept as bytes and decoded once at the end: no string per chunk.
    const stdoutChunks: Buffer[] = [];
    const stderr = stderrBuffer();
    let pendingLine = "";
    let settled = false;
    const collect = options.collectStdout ?? true;

    const onAbort = () => {
      if (settled) return;
      settled = true;
      child.kill("SIGKILL");
      reject(new MediaAbortError({ cause: signal?.reason }));
    };
    signal?.addEventListener("abort", onAbort, { once: true });

    const lineDecoder = options.onStdoutLine ? new StringDecoder("utf8") : undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      if (collect) stdoutChunks.push(chunk);
      if (!options.onStdoutLine || !lineDecoder) return;
      pendingLine += lineDecoder.write(chunk);
      const lines = pendingLine.split("\n");
      pendingLine = lines.pop() ?? "";
      for (const line of lines) options.onStdoutLine(line.trimEnd());
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => stderr.add(chunk));
    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      reject(
        new FfmpegError({
          binary,
          exitCode: null,
          signal: null,
          stderrTail: error.message,
          args,
          cause: error,
        }),
      );
    });
    child.on("close", (code, killSignal) => {
      signal?.removeEventListener("abort", onAbort);
      if (settled) return;
      settled = true;
      if (lineDecoder) pendingLine += lineDecoder.end();
      if (pendingLine && options.onStdoutLine) options.onStdoutLine(pendingLine.trimEnd());
      if (code === 0) {
        resolve({ stdout: Buffer.concat(stdoutChunks).toString("utf8"), stderr: stderr.text() });
        return;
      }
      reject(
        new FfmpegError({
          binary,
          exitCode: code,
          signal: killSignal,
          stderrTail: tail(stderr.text()),
          output: stderr.text(),
          args,
        }),
      );
    });
  });
}

function tail(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= stderrTailChars) return trimmed;
  const cut = trimmed.slice(-stderrTailChars);
  const newline = cut.indexOf("\n");
  return newline >= 0 ? cut.slice(newline + 1) : cut;
}
