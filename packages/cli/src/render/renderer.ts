import type { RunEvent, RunResultView } from "../contracts/run-event.js";

/**
 * Turns a run's events into output. Three implementations: `pretty` (TTY, redraws in place),
 * `plain` (one line per event worth reading) and `json` (NDJSON).
 *
 * @example
 * const renderer = createPlainRenderer({ out: process.stdout, cwd: process.cwd() });
 * renderer.note("using the built-in simulator");
 * for await (const event of stream) renderer.event(event);
 * renderer.end(await stream.result);
 */
export interface Renderer {
  /** Handle one run event. */
  event(event: RunEvent): void;
  /** Print a message that is not a run event (which service is used, how to resume…). */
  note(message: string): void;
  /** The run is over: stop redrawing, print the summary and the output paths. */
  end(result: RunResultView): void;
}

/** The renderer names the CLI accepts. */
export type RendererName = "pretty" | "plain" | "json";

/**
 * Choose a renderer: `json` when asked, `pretty` on a TTY (unless CI or TERM=dumb), else `plain`.
 *
 * @example
 * chooseRenderer({ json: false, isTTY: true, env: {} }); // "pretty"
 */
export function chooseRenderer(options: {
  json: boolean;
  isTTY: boolean | undefined;
  env: Record<string, string | undefined>;
}): RendererName {
  if (options.json) return "json";
  if (!options.isTTY) return "plain";
  if (options.env.CI || options.env.TERM === "dumb") return "plain";
  return "pretty";
}
