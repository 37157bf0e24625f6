import { z } from "zod";

/** A call that would work instead of a refused one. */
const alternative = z
  .object({
    tool: z.string(),
    arguments: z.record(z.unknown()),
    why: z.string(),
    estimate: z.number().optional(),
  })
  .passthrough();

/**
 * Every refusal's structured content (with `isError`).
 * @example refusalSchema.parse(result.structuredContent).alternatives
 */
export const refusalSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    hint: z.string().optional(),
    estimate: z.number().optional(),
    budget: z.number().optional(),
    ceiling: z.number().optional(),
    left: z.number().optional(),
    spent: z.number().optional(),
    alternatives: z.array(alternative),
    details: z.record(z.unknown()).optional(),
  })
  .passthrough();

const diagnostic = z
  .object({
    severity: z.enum(["error", "warning"]),
    code: z.string(),
    message: z.string(),
    file: z.string(),
    line: z.number(),
    column: z.number(),
    hint: z.string().optional(),
  })
  .passthrough();

const validateOutputShape = z
  .object({
    ok: z.boolean(),
    errors: z.number(),
    warnings: z.number(),
    profileWarnings: z.array(z.string()),
    files: z.array(
      z.object({ file: z.string(), ok: z.boolean(), diagnostics: z.array(diagnostic) }),
    ),
  })
  .passthrough();

const estimate = z.object({ credits: z.number(), complete: z.boolean() }).passthrough();

const planOutputShape = z
  .object({
    name: z.string(),
    stages: z.array(z.object({ index: z.number(), steps: z.array(z.string()) }).passthrough()),
    steps: z.array(z.record(z.unknown())),
    problems: z.array(z.object({ step: z.string(), message: z.string() })),
    notes: z.array(z.string()),
    estimate,
    /** Paid requests by the names their kinds give them (undefined: known at run time), and how each is shown. */
    requests: z.record(z.number().nullable()).optional(),
    requestLabels: z.record(z.string()).optional(),
    /** What a run may spend here: the pipeline's, the server's ceiling and what is left. */
    budget: z.number().optional(),
    ceiling: z.number().optional(),
    left: z.number().optional(),
    fits: z.boolean(),
  })
  .passthrough();

/** A run started (or resumed, retaken, picked, approved and continued) in the background. */
const startedOutputShape = z
  .object({
    runId: z.string().optional(),
    runDir: z.string().optional(),
    status: z.string(),
    budget: z.number().optional(),
    estimate: z.number().optional(),
    next: z.string(),
  })
  .passthrough();

const statusOutputShape = z
  .object({
    runId: z.string().optional(),
    runDir: z.string().optional(),
    status: z.string().optional(),
    spent: z.number().optional(),
    estimate: estimate.optional(),
    budget: z.number().optional(),
    waitingAt: z
      .array(z.object({ step: z.string(), message: z.string() }).passthrough())
      .optional(),
    video: z.string().optional(),
    report: z.string().optional(),
    runs: z.array(z.record(z.unknown())).optional(),
    server: z
      .object({ spent: z.number(), ceiling: z.number().optional(), left: z.number().optional() })
      .passthrough(),
  })
  .passthrough();

const modelsOutputShape = z
  .object({
    baseURL: z.string(),
    builtIn: z.boolean(),
    chatModels: z.array(z.string()),
    videoModels: z.array(z.object({ id: z.string() }).passthrough()),
  })
  .passthrough();

const reportOutputShape = z
  .object({ report: z.string(), summary: z.string(), status: z.string() })
  .passthrough();

const cancelOutputShape = z
  .object({
    runId: z.string().optional(),
    runDir: z.string(),
    stopping: z.boolean(),
    next: z.string(),
  })
  .passthrough();

const decideOutputShape = z
  .object({
    runDir: z.string(),
    step: z.string(),
    approved: z.boolean(),
    by: z.string(),
    at: z.string(),
    note: z.string().optional(),
    status: z.string(),
    next: z.string(),
  })
  .passthrough();

/**
 * A tool's output schema: its result's fields, and a refusal's (`code`, `message`, the
 * numbers, `alternatives`), each optional, since a client checks the structured content of
 * an error result against the same schema. A result has its own fields; a refusal
 * (`isError`) has `code`, `message` and `alternatives`.
 * @example server.registerTool("run", { outputSchema: orRefusal(startedOutputShape) }, handler);
 */
function orRefusal<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  // The result's own fields win where a name is shared (status's `estimate` is an object).
  return refusalSchema.partial().merge(schema.partial()).passthrough();
}

/**
 * Each tool's output schema (its result's fields and a refusal's).
 * @example server.registerTool("validate", { outputSchema: validateOutput }, handler);
 */
export const validateOutput = orRefusal(validateOutputShape);
/** @example server.registerTool("plan", { outputSchema: planOutput }, handler); */
export const planOutput = orRefusal(planOutputShape);
/** @example server.registerTool("run", { outputSchema: startedOutput }, handler); */
export const startedOutput = orRefusal(startedOutputShape);
/** @example server.registerTool("status", { outputSchema: statusOutput }, handler); */
export const statusOutput = orRefusal(statusOutputShape);
/** @example server.registerTool("models", { outputSchema: modelsOutput }, handler); */
export const modelsOutput = orRefusal(modelsOutputShape);
/** @example server.registerTool("report", { outputSchema: reportOutput }, handler); */
export const reportOutput = orRefusal(reportOutputShape);
/** @example server.registerTool("cancel", { outputSchema: cancelOutput }, handler); */
export const cancelOutput = orRefusal(cancelOutputShape);
/** @example server.registerTool("approve", { outputSchema: decideOutput }, handler); */
export const decideOutput = orRefusal(decideOutputShape);
