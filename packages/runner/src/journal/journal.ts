import {
  closeSync,
  existsSync,
  fdatasync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeSync,
} from "node:fs";
import { nowIso } from "../events/now-iso.js";
import { checksum, decodeRecord, type JournalRecord, signedLine } from "./journal-record.js";

/**
 * Where the executor writes a run's records: the file journal, or a database table for an
 * executor that keeps runs in a database. `append` settles once the record is durable.
 */
export type JournalWriter = Pick<Journal, "append"> & {
  /**
   * True when records reach the disk in the order they were appended (one file): a record
   * whose loss would only re-run work (`step.start`) need not be awaited, since any later
   * record that is awaited is durable only once it is. A writer of concurrent inserts (a
   * database) leaves it unset.
   */
  readonly ordered?: boolean;
};

/** Append-only, fsync'd journal of a run (`journal.jsonl`). */
export interface Journal {
  readonly file: string;
  /** Always true: lines go out in the order they were appended. */
  readonly ordered: true;
  /**
   * Append one record. Lines are written in order, those of one tick in one write (at the
   * latest before the next sync); the promise settles when the record is on disk
   * (fdatasync). Await it before acting on the change.
   */
  append(record: JournalRecord): Promise<void>;
  /** Wait for every written record to be on disk, then close the file. */
  close(): Promise<void>;
}

/**
 * Opens (or creates) a journal file for appending.
 * @example
 * const journal = openJournal("runs/x/journal.jsonl");
 * journal.append({ type: "fact", step: "clips", index: 0, name: "video.submitted", data: { jobId } });
 */
export function openJournal(file: string): Journal {
  const size = existsSync(file) ? statSync(file).size : 0;
  let fd: number | undefined = openSync(file, size > 0 ? "a+" : "a");
  if (size > 0) {
    // A crash mid-write leaves a torn last line: start the next record on a fresh line.
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 0x0a) writeSync(fd, "\n");
  }
  // Group commit: the records of one turn of the event loop (steps that ended together), and
  // those written while a sync runs, share the next sync: concurrent steps do not queue one
  // disk flush each, and a record written just after a sync started waits for one, not two.
  let written = 0;
  let synced = 0;
  let syncing: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  // Lines appended in one tick go out in one write (in order), before any sync that
  // covers them; a run of many quick steps would otherwise make a syscall per record.
  let pending: string[] = [];
  const writePending = () => {
    if (pending.length === 0 || fd === undefined) return;
    const text = pending.length === 1 ? (pending[0] as string) : pending.join("");
    pending = [];
    writeSync(fd, text);
  };
  const syncOnce = (handle: number): Promise<void> => {
    writePending();
    const upTo = written;
    return new Promise<void>((resolve, reject) =>
      fdatasync(handle, (error) => (error ? reject(error) : resolve())),
    ).then(() => {
      synced = Math.max(synced, upTo);
    });
  };
  /** The next sync: it starts at the end of this turn, once the one running (if any) ended. */
  const nextSync = async (): Promise<void> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (syncing) await syncing.catch(() => undefined);
    next = undefined;
    if (fd === undefined) throw new Error(`journal ${file} is closed`);
    const sync = syncOnce(fd);
    syncing = sync;
    try {
      await sync;
    } finally {
      if (syncing === sync) syncing = undefined;
    }
  };
  const flush = (target: number): Promise<void> => {
    if (synced >= target) return Promise.resolve();
    if (fd === undefined) return Promise.reject(new Error(`journal ${file} is closed`));
    next ??= nextSync();
    return next;
  };
  return {
    file,
    ordered: true,
    append(record) {
      if (fd === undefined) return Promise.reject(new Error(`journal ${file} is closed`));
      const line = stampedLine(record);
      if (pending.length === 0) setImmediate(writePending);
      pending.push(line);
      written += 1;
      return flush(written);
    },
    async close() {
      if (fd === undefined) return;
      writePending();
      await flush(written);
      closeSync(fd);
      fd = undefined;
    },
  };
}

/**
 * A record's journal line, `time` stamped now unless it has one: the line `signedLine` makes
 * of the text of `{ ...record, time }`, without the copy (the time goes last, as the copy
 * puts it) and with the text cut and joined once: the sum is taken over the record's text as
 * `decodeRecord` reads it back, then written after the time.
 * @example stampedLine({ type: "step.start", step: "a" }) // '{"type":"step.start","step":"a","time":"…","sum":"…"}\n'
 */
function stampedLine(record: JournalRecord): string {
  if (record.time !== undefined || Object.hasOwn(record, "time"))
    return signedLine(JSON.stringify({ ...record, time: record.time ?? nowIso() }));
  const json = JSON.stringify(record);
  const head = `${json.slice(0, -1)}${json.length > 2 ? "," : ""}"time":"${nowIso()}"`;
  return `${head},"sum":"${checksum(`${head}}`)}"}\n`;
}

/**
 * Reads every valid record of a journal file. A torn or corrupt line (a crash mid-write)
 * is skipped; records after it are still read.
 * @example const records = readJournal("runs/x/journal.jsonl");
 */
export function readJournal(file: string): JournalRecord[] {
  const text = readFileSync(file, "utf8");
  const records: JournalRecord[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const record = decodeRecord(line);
    if (record) records.push(record);
  }
  return records;
}
