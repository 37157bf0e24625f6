import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as errors from "../errors-entry.js";
import {
  AmbiguousVideoSubmissionError,
  ApprovalRefusedError,
  ApprovalRejectedError,
  ApprovalTimeoutError,
  BatchRowsError,
  BudgetEstimateError,
  BudgetExceededError,
  ExpressionError,
  FfmpegStepError,
  InputError,
  InvalidImageError,
  LostVideoJobError,
  OutputPathError,
  PipelineChangedError,
  PipelineLoadError,
  PriceUnitError,
  ProfileError,
  ResumeError,
  RUNNER_ERROR_CODES,
  RunCancelledError,
  RunDirectoryInUseError,
  RunnerError,
  type RunnerErrorCode,
  StepError,
  StepTimeoutError,
  StepWaitingError,
  SubPipelineDepthError,
  SubPipelineFailedError,
  TakeError,
  type TakeErrorCode,
  ToolCommandError,
  UnknownModelError,
  UnsettledRequestError,
} from "../errors-entry.js";
import type { RunnerErrorCode as RootRunnerErrorCode } from "../index.js";
import { UnsettledImageRequestError } from "../steps/image/unsettled-image-request-error.js";

const takeCodes: TakeErrorCode[] = [
  "bad_request",
  "downstream_jobs",
  "item_required",
  "not_a_fan_out",
  "sequential_item",
  "take_files_changed",
  "take_in_progress",
  "take_not_made",
  "unit_not_made",
  "unit_not_run",
  "unknown_item",
  "unknown_step",
  "unknown_take",
];

/** One error of every class, with each code a class may be given. */
function everyError(): RunnerError[] {
  return [
    new AmbiguousVideoSubmissionError("clips", 0, "key"),
    ...(["not_waiting", "unknown_gate", "gate_ambiguous", "approval_expired"] as const).map(
      (code) => new ApprovalRefusedError(code, "refused"),
    ),
    new ApprovalRejectedError("review", { by: "ana", at: "2026-01-01T00:00:00.000Z" }),
    new ApprovalTimeoutError("review", "2026-01-01T00:00:00.000Z"),
    new BatchRowsError([]),
    new BudgetEstimateError({ credits: 9, steps: {} } as never, 5),
    new BudgetExceededError(5, 4),
    new ExpressionError("steps.x", "unknown step"),
    new FfmpegStepError({ line: undefined, exitCode: 1, log: undefined }),
    new InputError([{ input: "scenes", message: "not a number" }]),
    new InvalidImageError("a.png", "not an image"),
    new LostVideoJobError("clips", 0, "video_1", undefined),
    new OutputPathError("../x", "it leaves the run directory"),
    new PipelineChangedError("runs/x", "a", "b"),
    ...(["pipeline_unreadable", "pipeline_syntax", "pipeline_invalid"] as const).map(
      (code) => new PipelineLoadError(code, "p.yaml", []),
    ),
    new PriceUnitError({}, 5),
    new ProfileError("reelsmith.config.yaml", []),
    ...(["resume_invalid", "not_a_run", "nothing_started", "service_changed"] as const).map(
      (code) => new ResumeError("runs/x", "no", code),
    ),
    new RunCancelledError(),
    new RunDirectoryInUseError("runs/x", "in use"),
    ...(["step_failed", "unknown_kind"] as const).map(
      (code) => new StepError("clips", undefined, new Error("boom"), code),
    ),
    new StepTimeoutError("clips", 1, 1000),
    new StepWaitingError("review", "waits"),
    new SubPipelineDepthError("tool.yaml", 4, 3),
    new SubPipelineFailedError("tool.yaml", "failed", undefined),
    ...takeCodes.map((code) => new TakeError(code, "runs/x", "no")),
    new ToolCommandError(["tool"], 1, ""),
    new UnknownModelError([], []),
    new UnsettledImageRequestError("poster", undefined, "key"),
    new UnsettledRequestError({
      step: "narration",
      index: undefined,
      request: "speech",
      idempotencyKey: "key",
    }),
  ];
}

/**
 * The codes the runner's sources throw as a plain `RunnerError` (`new RunnerError("code", …)`,
 * a choice of literals in its first argument included), read from the files themselves.
 */
function codesThrownAsRunnerError(): Set<string> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const codes = new Set<string>();
  for (const entry of readdirSync(root, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".ts") || entry.endsWith(".test.ts")) continue;
    const text = readFileSync(`${root}/${entry}`, "utf8");
    for (const call of text.matchAll(/new RunnerError\(\s*([^,]*),/g)) {
      // Codes are snake_case: a choice's condition (`what === "mix"`) is not one.
      for (const literal of (call[1] ?? "").matchAll(/"([a-z]+_[a-z_]+)"/g)) {
        codes.add(literal[1] ?? "");
      }
    }
  }
  return codes;
}

describe("RunnerErrorCode", () => {
  it("holds every code a runner error carries, and no code none carries", () => {
    const made = everyError();
    const codes = new Set<string>(RUNNER_ERROR_CODES);
    for (const error of made) expect(codes.has(error.code), error.name).toBe(true);
    const direct = codesThrownAsRunnerError();
    expect(direct.size).toBeGreaterThan(10);
    for (const code of direct) expect(codes.has(code), code).toBe(true);
    // No code of the list is left over: each one is some class's or some throw's.
    const carried = new Set([...made.map((error) => error.code), ...direct]);
    expect([...codes].filter((code) => !carried.has(code))).toEqual([]);
    expect(codes.size).toBe(RUNNER_ERROR_CODES.length);
  });

  it("covers every error class of @reelsmith/runner/errors (a new class needs its codes here)", () => {
    const made = new Set(everyError().map((error) => error.constructor));
    const classes = Object.values(errors).filter(
      (value): value is typeof RunnerError =>
        typeof value === "function" &&
        value !== RunnerError &&
        value.prototype instanceof RunnerError,
    );
    expect(classes.length).toBeGreaterThan(25);
    expect(classes.filter((error) => !made.has(error)).map((error) => error.name)).toEqual([]);
  });

  it("types every runner error's code, from the root and /errors alike", () => {
    expectTypeOf<RunnerError["code"]>().toEqualTypeOf<RunnerErrorCode>();
    expectTypeOf<RootRunnerErrorCode>().toEqualTypeOf<RunnerErrorCode>();
    expectTypeOf<TakeError["code"]>().toEqualTypeOf<RunnerErrorCode>();
    // Not a plain string: a code outside the list does not compile.
    expectTypeOf<string>().not.toExtend<RunnerErrorCode>();
    // @ts-expect-error: "budget_gone" is no runner error's code
    const wrong = new RunnerError("budget_gone", "message");
    expect(wrong.code).toBe("budget_gone");
    // @ts-expect-error: a take is never refused with a step's code
    expect(new TakeError("step_failed", "runs/x", "no").code).toBe("step_failed");
  });
});
