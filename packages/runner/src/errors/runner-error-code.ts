/**
 * Every `code` an error of the runner carries, grouped by the class that throws it. A class's
 * constructor takes only these (a code outside this list does not compile), so a caller can
 * `switch` over `error.code` and be told by the compiler when a case is missing.
 * @example if (RUNNER_ERROR_CODES.includes(code)) console.log("the runner's own");
 */
export const RUNNER_ERROR_CODES = [
  // The run and its budget.
  "budget_exceeded_by_estimate", // BudgetEstimateError
  "budget_reached", // BudgetExceededError
  "budget_unit_mismatch", // PriceUnitError
  "run_cancelled", // RunCancelledError
  "run_dir_in_use", // RunDirectoryInUseError
  "pipeline_changed", // PipelineChangedError
  "output_path_escapes", // OutputPathError
  "invalid_image", // InvalidImageError
  "unknown_model", // UnknownModelError
  // Steps and sub-pipelines.
  "step_failed", // StepError
  "unknown_kind", // StepError: a step of no known kind
  "step_timeout", // StepTimeoutError
  "step_waiting", // StepWaitingError
  "sub_pipeline_failed", // SubPipelineFailedError
  "sub_pipeline_too_deep", // SubPipelineDepthError
  // Resuming a run directory (ResumeError).
  "resume_invalid",
  "not_a_run",
  "nothing_started",
  "service_changed",
  // Retakes and picks (TakeError).
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
  // Reading a pipeline, its inputs, a profile, a batch's rows.
  "pipeline_unreadable", // PipelineLoadError
  "pipeline_syntax", // PipelineLoadError
  "pipeline_invalid", // PipelineLoadError
  "input_invalid", // InputError
  "expression_error", // ExpressionError
  "invalid_profile", // ProfileError
  "batch_rows_invalid", // BatchRowsError
  // Gates (approve steps).
  "approval_rejected", // ApprovalRejectedError
  "approval_timeout", // ApprovalTimeoutError
  "not_waiting", // ApprovalRefusedError
  "unknown_gate", // ApprovalRefusedError
  "gate_ambiguous", // ApprovalRefusedError
  "approval_expired", // ApprovalRefusedError
  // Requests of the kinds whose answer may have been paid.
  "video_job_lost", // LostVideoJobError
  "video_submission_ambiguous", // AmbiguousVideoSubmissionError
  "image_request_unsettled", // UnsettledImageRequestError
  "request_unsettled", // UnsettledRequestError (speech, words)
  "pipeline_cycle", // a dependency cycle the checks let through
  "batch_inputs_unreadable", // a batch's inputs file
  // Local work.
  "ffmpeg_failed", // FfmpegStepError
  "tool_command_failed", // ToolCommandError
  // An ffmpeg step's request its values (from expressions) make impossible.
  "ffmpeg_no_operation",
  "ffmpeg_no_inputs",
  "ffmpeg_missing_option",
  "ffmpeg_frame_at",
  "ffmpeg_mix_input",
  "ffmpeg_mix_count",
  "ffmpeg_mix_timing",
  "ffmpeg_reframe_size",
  "ffmpeg_captions_input",
  "ffmpeg_captions_count",
  "ffmpeg_captions_timing",
] as const;

/**
 * The `code` of an error the runner throws (see {@link RUNNER_ERROR_CODES}): `RunnerError#code`
 * is typed by it.
 * @example const exitNow = (code: RunnerErrorCode) => code === "budget_reached";
 */
export type RunnerErrorCode = (typeof RUNNER_ERROR_CODES)[number];

/** The codes of {@link TakeError}: what a retake or a pick cannot do as asked. */
export type TakeErrorCode = Extract<
  RunnerErrorCode,
  | "bad_request"
  | "downstream_jobs"
  | "item_required"
  | "not_a_fan_out"
  | "sequential_item"
  | "take_files_changed"
  | "take_in_progress"
  | "take_not_made"
  | "unit_not_made"
  | "unit_not_run"
  | "unknown_item"
  | "unknown_step"
  | "unknown_take"
>;

/** The codes of {@link ResumeError}: why a directory cannot be resumed. */
export type ResumeErrorCode = Extract<
  RunnerErrorCode,
  "resume_invalid" | "not_a_run" | "nothing_started" | "service_changed"
>;

/** The codes of {@link StepError}. */
export type StepErrorCode = Extract<RunnerErrorCode, "step_failed" | "unknown_kind">;
