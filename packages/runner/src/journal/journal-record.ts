import { hash } from "node:crypto";

/** One line of `journal.jsonl`: a state change of the run, a step, or a fan-out item. */
export interface JournalRecord {
  /** What happened, e.g. "run.start", "step.end", "item.end", "fact". */
  type: string;
  /** ISO time the record was written. */
  time?: string;
  step?: string;
  index?: number;
  [field: string]: unknown;
}

/** Checksum of a record's JSON text (the first 16 hex digits of its sha256). */
export function checksum(json: string): string {
  // One-shot: no Hash object per record (every journal line is summed).
  return hash("sha256", json, "hex").slice(0, 16);
}

/**
 * Encodes a record as one journal line: the record's JSON with a trailing `sum` field.
 * @example encodeRecord({ type: "step.start", step: "a" }) // '{"type":"step.start","step":"a","sum":"…"}\n'
 */
export function encodeRecord(record: JournalRecord): string {
  return signedLine(JSON.stringify(record));
}

/**
 * A record's JSON text as one journal line, with its trailing `sum` field.
 * @example signedLine('{"type":"x"}') // '{"type":"x","sum":"…"}\n'
 */
export function signedLine(json: string): string {
  return `${json.slice(0, -1)}${json.length > 2 ? "," : ""}"sum":"${checksum(json)}"}\n`;
}

/**
 * Decodes one journal line; returns undefined for a torn, corrupt or unchecked line.
 * @example decodeRecord(encodeRecord({ type: "x" }).trim()) // { type: "x" }
 */
export function decodeRecord(line: string): JournalRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const { sum, ...record } = parsed as Record<string, unknown>;
  if (typeof sum !== "string" || typeof record.type !== "string") return undefined;
  // The sum was taken over the line as it was written without it (encodeRecord puts it
  // last): checked on that text when it ends so, else on the record written out again.
  const signed = signedText(line, sum);
  if (checksum(signed ?? JSON.stringify(record)) !== sum) return undefined;
  return record as JournalRecord;
}

/** The JSON text a line's trailing `"sum":"…"` field was taken over, if the line ends with it. */
function signedText(line: string, sum: string): string | undefined {
  const text = line.trimEnd();
  const tail = `"sum":"${sum}"}`;
  if (!text.endsWith(tail)) return undefined;
  const head = text.slice(0, -tail.length);
  if (head === "{") return "{}";
  return head.endsWith(",") ? `${head.slice(0, -1)}}` : undefined;
}
