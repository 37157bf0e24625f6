/**
 * Local mirror of `@reelsmith/runner`'s RunEvent union and RunResult, as agreed in the
 * package contracts. The renderers are written against this structural type so that they can
 * be built and tested on fixed event lists; the runner's real events are assignable to it.
 *
 * @example
 * const event: RunEvent = { type: "step.start", seq: 1, time: new Date().toISOString(), step: "clips" };
 */
export type RunEvent =
  | (EventBase & {
      type: "run.start";
      runId: string;
      runDir: string;
      name: string;
      steps: { id: string; kind: string; fanOut: boolean }[];
    })
  | (EventBase & {
      type: "run.end";
      status: RunStatus;
      totals: RunTotals;
      outputs: Record<string, unknown>;
      error?: SerializedError;
      durationMs: number;
    })
  | (EventBase & { type: "step.start"; step: string })
  | (EventBase & {
      type: "step.end";
      step: string;
      outputs: unknown;
      durationMs: number;
      cached: boolean;
    })
  | (EventBase & { type: "step.skip"; step: string; reason: string })
  | (EventBase & { type: "step.fail"; step: string; error: SerializedError; continued: boolean })
  | (EventBase & {
      type: "step.retry";
      step: string;
      item?: number;
      attempt: number;
      delayMs: number;
      error: SerializedError;
    })
  | (EventBase & { type: "item.start"; step: string; index: number; total: number })
  | (EventBase & {
      type: "item.end";
      step: string;
      index: number;
      total: number;
      status: string;
      error?: SerializedError;
    })
  | (EventBase & { type: "chat.delta"; step: string; index?: number; text: string })
  | (EventBase & { type: "chat.usage"; step: string; index?: number; usage: Usage })
  | (EventBase & { type: "video.submitted"; step: string; index?: number; jobId: string })
  | (EventBase & {
      type: "video.status";
      step: string;
      index?: number;
      jobId: string;
      status: string;
      polls: number;
    })
  | (EventBase & {
      type: "video.downloaded";
      step: string;
      index?: number;
      file: string;
      bytes: number;
    })
  | (EventBase & {
      type: "download.progress";
      step: string;
      index?: number;
      bytes: number;
      total?: number;
    })
  | (EventBase & { type: "ffmpeg.progress"; step: string; index?: number; percent: number })
  | (EventBase & { type: "budget.reached"; credits: number; maxCredits: number })
  | (EventBase & { type: "log"; level: string; message: string; step?: string });

/** Fields every run event carries. */
export interface EventBase {
  seq: number;
  /** ISO timestamp. */
  time: string;
}

/** How a run ended. */
export type RunStatus = "succeeded" | "failed" | "cancelled";

/** Token usage as reported by the service. */
export interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  [key: string]: unknown;
}

/** Totals of a run. */
export interface RunTotals {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  credits: number;
  videos: number;
  cachedSteps: number;
}

/** An error as it travels in events and journals. */
export interface SerializedError {
  name?: string;
  code?: string;
  message: string;
  [key: string]: unknown;
}

/** The result of a run as the renderers need it. */
export interface RunResultView {
  status: RunStatus;
  runDir: string;
  outputs: Record<string, unknown>;
  totals: RunTotals;
  error?: SerializedError;
  durationMs: number;
}
