import type { TextSink } from "./redact.js";

/** The stream a {@link closableSink} writes to: a process's stdout or stderr, or any pipe. */
export interface ClosableStream {
  write(text: string): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

/** A sink that knows when its reader went away. */
export interface ClosableSink extends TextSink {
  /** True once a write failed (EPIPE: the reader closed the pipe; EIO: the terminal closed). */
  readonly closed: boolean;
}

/**
 * Wrap a stream so that its reader going away (`… | head -2`, a closed terminal) is not an
 * unhandled `write EPIPE` that kills the process: the stream's error is taken, `onClose` is
 * told once, and every later write is dropped (nothing more is attempted on the dead stream).
 *
 * @example
 * const stdout = closableSink(process.stdout, () => outputClosed.abort());
 * stdout.write("hello\n"); // false and nothing written once the reader has gone
 */
export function closableSink(
  stream: ClosableStream,
  onClose: (error: Error) => void,
): ClosableSink {
  let closed = false;
  stream.on("error", (error) => {
    if (closed) return;
    closed = true;
    onClose(error);
  });
  return {
    write(text: string) {
      if (closed) return false;
      return stream.write(text);
    },
    get closed() {
      return closed;
    },
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    get rows() {
      return stream.rows;
    },
  };
}
