import type { RunStatus, SerializedError } from "../../src/events/run-event.js";

/** How a run ended, as every executor reports it. */
export interface ContractRun {
  status: RunStatus;
  outputs: Record<string, unknown>;
  totals: { credits: number; made: Record<string, number> };
  steps: Record<string, { status: string; outputs: unknown; error?: SerializedError }>;
  error?: SerializedError;
  /** The run's journal, as its executor keeps it (the file, the database). */
  journal: readonly Record<string, unknown>[];
}

/** What a case may ask of a run. */
export interface ContractRunOptions {
  inputs?: Record<string, unknown>;
  maxCredits?: number;
  maxVideos?: number;
  cache?: boolean;
  /** Approve every gate by "auto". */
  autoApprove?: boolean;
  /** Let a fan-out the budget cannot wholly pay for make what fits. */
  allowPartial?: boolean;
  /** The service to run against (the contract's simulator). */
  baseURL: string;
  apiKey: string;
}

/** One executor under test: it runs an inline pipeline (built-in step kinds) to its end. */
export interface ExecutorHarness {
  name: string;
  run(pipeline: object, options: ContractRunOptions): Promise<ContractRun>;
  /** Cases this executor does not pass, each with the reason written down. */
  skip?: Readonly<Record<string, string>>;
}

/** The names of the contract's cases (for `skip`). */
export const contractCases = [
  "dag: outputs flow from chat to a fan-out of clips to ffmpeg, each clip submitted once",
  "failure: a failed clip fails its step and skips what needs it; continue_on_error goes on",
  "budget: a run whose certain cost is over max_credits is refused before any request",
  "budget: parallel jobs reserve their price, never pass max_credits, and the run ends budget_reached",
  "budget: a fan-out the budget cannot wholly pay for stops before its first job",
  "budget: allowPartial makes what fits of a fan-out known before the run, then budget_reached",
  "budget: allowPartial still refuses, before any request, a run that cannot pay one item of each fan-out",
  "cache: an identical second run is served from the cache without a new job",
  "gate: a run stops waiting at an approve step, nothing behind it submitted; autoApprove passes it",
  "speech: a narration per item is spoken and its words timed, each request paid once",
  "image: characters, then keyframes drawn with them as references, each image paid once",
  "lifecycle: a run journals run.start first and run.end last, the same records on every executor",
] as const;

/** One of {@link contractCases}. */
export type ContractCaseName = (typeof contractCases)[number];
