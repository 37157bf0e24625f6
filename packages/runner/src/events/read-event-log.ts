import { readFileSync } from "node:fs";
import type { RunEvent } from "./run-event.js";
import { upgradeEvent } from "./upgrade-event.js";

/**
 * Reads the events of a run's `events.ndjson` in order, across resumes (each session starts
 * with its own `run.start`). A torn last line (a run still writing, or killed mid-write) and
 * any line that is not an event are skipped. A missing file gives no events. Events an older
 * reelsmith wrote come in today's shape ({@link upgradeEvent}).
 * @example const events = readEventLog("runs/x/events.ndjson");
 */
export function readEventLog(file: string): RunEvent[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const events: RunEvent[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const parsed = JSON.parse(line) as unknown;
      if (
        parsed &&
        typeof parsed === "object" &&
        typeof (parsed as { type?: unknown }).type === "string" &&
        typeof (parsed as { time?: unknown }).time === "string"
      ) {
        events.push(upgradeEvent(parsed as RunEvent));
      }
    } catch {
      // A torn line: skipped like the journal's.
    }
  }
  return events;
}
