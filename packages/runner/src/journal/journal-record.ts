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

/** A line as encodeRecord writes it: the record's JSON, then `,"sum":"<16 hex>"}` (or `{"sum":…}`). */
const SIGNED_TAIL = /(,?)"sum":"([0-9a-f]{16})"\}\s*$/;

/**
 * Decodes one journal line; returns undefined for a torn, corrupt or unchecked line.
 * @example decodeRecord(encodeRecord({ type: "x" }).trim()) // { type: "x" }
 */
export function decodeRecord(line: string): JournalRecord | undefined {
  // A line as written: its sum is checked on the text it was taken over, and that text
  // (the record without its sum) is parsed: one parse, no copy of the record (a resume of
  // thousands of units reads tens of thousands of lines).
  const tail = SIGNED_TAIL.exec(line);
  if (tail) {
    const head = line.slice(0, tail.index);
    const signed = tail[1] === "," ? `${head}}` : head === "{" ? "{}" : undefined;
    if (signed !== undefined) {
      if (checksum(signed) !== tail[2]) return undefined;
      const record = parsedRecord(signed);
      // A record with a `sum` of its own is read as before (by decodedOtherwise).
      if (record && !Object.hasOwn(record, "sum")) return record;
    }
  }
  return decodedOtherwise(line);
}

/** The JSON text as a record (an object with a string `type`), or undefined. */
function parsedRecord(text: string): JournalRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  return typeof (parsed as { type?: unknown }).type === "string"
    ? (parsed as JournalRecord)
    : undefined;
}

/**
 * A line the fast path does not take (its sum not its last field, or a `sum` key before it):
 * parsed whole, its `sum` taken out, and checked on the text it was taken over when the line
 * ends with it, else on the record written out again.
 */
function decodedOtherwise(line: string): JournalRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const { sum, ...record } = parsed as Record<string, unknown>;
  if (typeof sum !== "string" || typeof record.type !== "string") return undefined;
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
