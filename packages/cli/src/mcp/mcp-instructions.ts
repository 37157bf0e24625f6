/**
 * What an agent reads when it connects (the `instructions` of the initialize result): the
 * workflow, and the limits it works within.
 * @example new McpServer(info, { instructions: mcpInstructions({ maxCredits: 100, allowApprove: false }) });
 */
export function mcpInstructions(limits: {
  maxCredits?: number;
  maxTotalCredits?: number;
  allowApprove?: boolean;
}): string {
  const ceiling = [
    limits.maxCredits === undefined ? "" : `at most ${limits.maxCredits} credits per run`,
    limits.maxTotalCredits === undefined ? "" : `at most ${limits.maxTotalCredits} credits in all`,
  ].filter(Boolean);
  return [
    "reelsmith runs declarative YAML pipelines that turn a story into a video: a chat step writes a JSON storyboard, a video step makes one clip per scene (paid jobs), ffmpeg steps join and caption them.",
    "",
    "Workflow:",
    "1. Write a pipeline file (the resource reelsmith://schema/pipeline is its JSON Schema; the `models` tool lists the models, their limits and prices).",
    "2. `validate` it: fix every diagnostic at its file:line:column.",
    "3. `plan` it with the inputs you mean to use: stages, fan-outs and the estimate (`credits` is the certain part; `complete` false when sizes are known only at run time); `fits` says whether it fits what this server allows.",
    "4. `run` it: it starts in the background and returns runId and runDir at once.",
    "5. Poll `status` with the runId until its status is no longer `running`: succeeded (its `video` is the final file), waiting (a gate: see `waitingAt` and `approvingCosts`), budget_reached, failed, rejected or cancelled.",
    `6. At a gate: ${limits.allowApprove ? "`approve` (with `continue: true` to go on) or `reject`, with a note saying why" : "this server may not decide gates; tell the person what `status` shows (or the `report` page) and let them run `reelsmith approve RUN_DIR`, then call `resume`"}.`,
    "7. A scene that came out wrong: `retake` it (one new paid job, optionally a new prompt or seed); `pick` puts an earlier take back for free. `resume` continues a stopped run without paying twice; `cancel` stops one gently. `report` writes report.html for a person to review.",
    "8. Many films from one pipeline: `batch` it with an inputs file (CSV with a header of input names, JSONL or YAML; one run per row). Every row is checked and the batch priced before anything is sent; the batch is one paid call (the limits below bound all its rows together). Poll `status` with its batchDir: each row's status, credits and final video.",
    "",
    `Limits you cannot lift: ${ceiling.length > 0 ? ceiling.join(", ") : "the pipeline's own max_credits"}. A paid call (run, batch, resume, retake, approve with continue) may ask for a smaller maxCredits, never a larger one. A call whose certain cost is over what it may spend is refused before anything is sent, with code, estimate, budget, ceiling, left and alternatives: calls that would fit (e.g. fewer scenes, a cheaper model). Try an alternative; do not retry the same call.`,
  ].join("\n");
}
