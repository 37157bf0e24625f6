import type { StudioAction } from "./sessions.js";

/** A form's fields that do not make an action. */
export class BadActionError extends Error {
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = "BadActionError";
  }
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : undefined);

function integer(value: unknown, name: string, minimum: number): number | undefined {
  const raw = typeof value === "number" ? String(value) : text(value);
  if (raw === undefined || raw === "") return undefined;
  if (!/^-?\d+$/.test(raw) || Number(raw) < minimum)
    throw new BadActionError(`${name} must be a whole number from ${minimum}, not "${raw}"`);
  return Number(raw);
}

/** `key=value` pairs, one per line or comma; a JSON value is read as JSON (as `--param`). */
function params(value: unknown): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const pair of (text(value) ?? "").split(/[\n,]/)) {
    if (pair.trim() === "") continue;
    const at = pair.indexOf("=");
    if (at <= 0) throw new BadActionError(`a param is key=value, not "${pair.trim()}"`);
    const raw = pair.slice(at + 1).trim();
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // A plain word stays a string.
    }
    result[pair.slice(0, at).trim()] = parsed;
  }
  return result;
}

/**
 * Reads a studio form's fields (strings, as the page sends them) into an action of the
 * library: `approve`/`reject` (step, note), `resume`, `retake` (step, index, prompt, seed,
 * params) or `pick` (step, index, take). Bad fields are refused with what was expected.
 * @example parseAction("pick", { step: "clips", index: "1", take: "1" }, "ana")
 */
export function parseAction(
  action: string,
  fields: Record<string, unknown>,
  by: string,
): StudioAction {
  const step = text(fields.step) || undefined;
  const index = integer(fields.index, "index", 0);
  const unit = { step: step ?? "", ...(index === undefined ? {} : { index }) };
  switch (action) {
    case "approve":
    case "reject": {
      const note = text(fields.note);
      return { action, by, ...(step ? { step } : {}), ...(note ? { note } : {}) };
    }
    case "resume":
      return { action };
    case "retake": {
      if (!step) throw new BadActionError("a retake names its step");
      const changes = params(fields.params);
      const seed = integer(fields.seed, "seed", Number.MIN_SAFE_INTEGER);
      if (seed !== undefined) changes.seed = seed;
      const prompt = typeof fields.prompt === "string" ? fields.prompt : undefined;
      return {
        action,
        retake: {
          ...unit,
          ...(prompt === undefined || prompt.trim() === "" ? {} : { prompt }),
          ...(Object.keys(changes).length === 0 ? {} : { params: changes }),
        },
      };
    }
    case "pick": {
      const take = integer(fields.take, "take", 1);
      if (!step || take === undefined) throw new BadActionError("a pick names its step and take");
      return { action, pick: { ...unit, take } };
    }
    default:
      throw new BadActionError(`unknown action "${action}"`);
  }
}
