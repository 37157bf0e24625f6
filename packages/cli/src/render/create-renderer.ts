import type { CliContext } from "../context.js";
import { createJsonRenderer } from "./json-renderer.js";
import { createPlainRenderer } from "./plain-renderer.js";
import { createPrettyRenderer } from "./pretty-renderer.js";
import { chooseRenderer, type Renderer } from "./renderer.js";

/**
 * The renderer for this context: NDJSON with `--json`, live progress on a TTY, plain lines
 * otherwise.
 *
 * @example
 * const renderer = createRenderer({ json: false, context });
 */
export function createRenderer(options: { json: boolean; context: CliContext }): Renderer {
  const { context } = options;
  const name = chooseRenderer({
    json: options.json,
    isTTY: context.stdout.isTTY,
    env: context.env,
  });
  if (name === "json") return createJsonRenderer({ out: context.stdout, err: context.stderr });
  if (name === "plain") return createPlainRenderer({ out: context.stdout, cwd: context.cwd });
  return createPrettyRenderer({
    out: context.stdout,
    cwd: context.cwd,
    color: !context.env.NO_COLOR,
  });
}
