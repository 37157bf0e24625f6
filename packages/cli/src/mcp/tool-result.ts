import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** A call that would work instead of a refused one: the tool and its arguments. */
export interface Alternative {
  tool: string;
  arguments: Record<string, unknown>;
  /** Why it would work, in one sentence. */
  why: string;
  /** What it is expected to cost (its certain part), when it is a paid call. */
  estimate?: number;
}

/** A refusal as the tool's caller reads it: a stable code, the numbers, what would work. */
export interface Refusal {
  code: string;
  message: string;
  hint?: string;
  /** The certain part of the call's estimate, in credits. */
  estimate?: number;
  /** The budget the call would have had (`min(asked, ceiling, spent + left)`). */
  budget?: number;
  /** The server's per-run ceiling (`--max-credits`). */
  ceiling?: number;
  /** What is left of the server's total (`--max-total-credits`). */
  left?: number;
  /** What the run had spent before the call. */
  spent?: number;
  alternatives: Alternative[];
  /** Anything else the code explains (diagnostics of an invalid pipeline, waiting gates…). */
  details?: Record<string, unknown>;
}

/**
 * A successful tool result: the structured content, and the same as JSON text for clients
 * that read text only.
 * @example return okResult({ runId, runDir }, `started ${runId}`);
 */
export function okResult(structured: Record<string, unknown>, text?: string): CallToolResult {
  return {
    content: [{ type: "text", text: text ?? JSON.stringify(structured, null, 2) }],
    structuredContent: structured,
  };
}

/**
 * A refused call as an error result (`isError`), with the refusal as structured content.
 * @example return refusalResult({ code: "approval_not_allowed", message: "…", alternatives: [] });
 */
export function refusalResult(refusal: Refusal): CallToolResult {
  const text = [refusal.message, refusal.hint ? `hint: ${refusal.hint}` : ""]
    .filter(Boolean)
    .join("\n");
  const alternatives = refusal.alternatives.map(
    (entry) => `instead: ${entry.tool} ${JSON.stringify(entry.arguments)} (${entry.why})`,
  );
  return {
    isError: true,
    content: [{ type: "text", text: [text, ...alternatives].join("\n") }],
    structuredContent: { ...refusal },
  };
}

/**
 * A refusal thrown by a tool's body, turned into its error result by {@link toolHandler}.
 * @example throw new RefusalError({ code: "not_running_here", message: "…", alternatives: [] });
 */
export class RefusalError extends Error {
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(refusal.message);
    this.name = "RefusalError";
    this.refusal = refusal;
  }
}

/**
 * Any error as a refusal: a CLI or runner error keeps its code, message and hint; anything
 * else is `internal_error` with its message (never a stack).
 * @example refusalOf(new UsageError("bad input", { code: "invalid_inputs" })).code // "invalid_inputs"
 */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof RefusalError) return error.refusal;
  const like = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
    hint?: unknown;
    name?: unknown;
  };
  const code =
    typeof like.code === "string" && like.code
      ? like.code
      : typeof like.name === "string" && like.name !== "Error"
        ? like.name
        : "internal_error";
  return {
    code,
    message: typeof like.message === "string" ? like.message : String(error),
    ...(typeof like.hint === "string" ? { hint: like.hint } : {}),
    alternatives: [],
  };
}

/**
 * Wrap a tool's body: its value becomes the structured result, a thrown error a refusal.
 * @example server.registerTool("status", spec, toolHandler(async (args) => readStatus(args)));
 */
export function toolHandler<Args>(
  body: (args: Args) => Promise<Record<string, unknown>>,
  describe?: (result: Record<string, unknown>) => string,
): (args: Args) => Promise<CallToolResult> {
  return async (args: Args) => {
    try {
      const result = await body(args);
      return okResult(result, describe?.(result));
    } catch (error) {
      return refusalResult(refusalOf(error));
    }
  };
}
