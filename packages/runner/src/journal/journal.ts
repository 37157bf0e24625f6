import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeSync,
} from "node:fs";
import { decodeRecord, encodeRecord, type JournalRecord } from "./journal-record.js";

/** Append-only, fsync'd journal of a run (`journal.jsonl`). */
export interface Journal {
  readonly file: string;
  /** Append one record and fsync it before returning: the caller acts only afterwards. */
  append(record: JournalRecord): void;
  close(): void;
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
  return {
    file,
    append(record) {
      if (fd === undefined) throw new Error(`journal ${file} is closed`);
      const line = encodeRecord({ ...record, time: record.time ?? new Date().toISOString() });
      writeSync(fd, line);
      fsyncSync(fd);
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
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
