import type { RunEventOf } from "../contracts/run-event.js";
import { formatStepEstimate } from "./format-estimate.js";

const MAX_SHOWN = 400;

/** A value a gate shows, on one line, cut to a readable length. */
function shown(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const line = String(text ?? "").replace(/\s+/g, " ");
  return line.length > MAX_SHOWN ? `${line.slice(0, MAX_SHOWN)}…` : line;
}

const IMAGE_FILE = /\.(png|jpe?g|webp|gif)$/i;

/**
 * The image files a shown value names: a path to an image (a keyframe, a character sheet), or
 * a list of them (nested lists flattened); undefined for any other value.
 * @example shownImages(["/runs/x/keyframes/scene-0.png"]) // ["/runs/x/keyframes/scene-0.png"]
 */
export function shownImages(value: unknown): string[] | undefined {
  const values = Array.isArray(value) ? value.flat(2) : [value];
  if (values.length === 0) return undefined;
  return values.every((entry) => typeof entry === "string" && IMAGE_FILE.test(entry))
    ? (values as string[])
    : undefined;
}

/**
 * What a run stopped at its gates says, as lines: each gate with its question, what it shows
 * and until when it waits, then what approving starts (the steps behind the gates and their
 * expected cost, fan-outs counted from the outputs made so far).
 *
 * @example
 * formatWaiting({ type: "run.waiting", seq: 9, time: "…", gates: [{ step: "review", reason: "waits for approval: ok?" }], next: { credits: 27, complete: true, steps: { clips: { perUnit: 9, units: 3, credits: 27 } } } });
 * // ["waiting at review: ok?", "after approval: 27 credits more", "  clips  3 × 9 = 27"]
 */
export function formatWaiting(event: RunEventOf<"run.waiting">): string[] {
  const lines: string[] = [];
  for (const gate of event.gates) {
    const details = gate.details ?? {};
    const message = typeof details.message === "string" ? details.message : gate.reason;
    const until = typeof details.deadline === "string" ? ` (waits until ${details.deadline})` : "";
    lines.push(`waiting at ${gate.step}: ${message}${until}`);
    const values = Array.isArray(details.show) ? details.show : [];
    for (const value of values) {
      const images = shownImages(value);
      if (!images) {
        lines.push(`  shows: ${shown(value)}`);
        continue;
      }
      // Pictures to look at: each file on its own line (the report shows them as thumbnails).
      lines.push(
        `  shows ${images.length} image${images.length === 1 ? "" : "s"} (thumbnails in the run's report.html):`,
      );
      for (const file of images) lines.push(`    ${file}`);
    }
  }
  const steps = Object.entries(event.next.steps);
  const head = event.next.complete
    ? `after approval: ${event.next.credits} credits more`
    : event.next.creditsAtMost !== undefined
      ? `after approval: between ${event.next.credits} and ${event.next.creditsAtMost} credits more`
      : `after approval: at least ${event.next.credits} credits more, the rest known at run time`;
  lines.push(steps.length === 0 ? "after approval: nothing more to pay" : head);
  const width = Math.max(0, ...steps.map(([id]) => id.length));
  for (const [id, step] of steps) lines.push(`  ${id.padEnd(width)}  ${formatStepEstimate(step)}`);
  return lines;
}
