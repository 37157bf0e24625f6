import type { RunEstimate, RunTotals, StepEstimate } from "@reelsmith/runner";
import type { ActiveTime } from "./active-time.js";

/** A file of the run directory as the page refers to it. */
export interface RunFile {
  /** Path relative to the run directory, with `/` separators. */
  relative: string;
  exists: boolean;
}

/** One card of the storyboard: a video step or one item of a video fan-out. */
export interface StoryboardCard {
  step: string;
  index?: number;
  status: "succeeded" | "failed" | "running" | "pending" | "cached";
  prompt?: string;
  model?: string;
  size?: string;
  /** The length asked for, in words (`6 s`, `at least 5.66 s`). */
  seconds?: string;
  jobId?: string;
  attempts: number;
  /** The worker that last journaled this unit (a run on many machines: its executor id). */
  worker?: string;
  /** Credits this unit spent, as the run's ledger says (0 when the cache served it). */
  credits?: number;
  /** Credits the cache saved on it (its price, when the cache served it). */
  savedCredits?: number;
  duration?: number;
  clip?: RunFile;
  thumbnail?: RunFile;
  error?: string;
  /** Every take of a clip that was retaken (`reelsmith retake`), in order; absent otherwise. */
  takes?: TakeView[];
}

/** One take of a retaken clip, as its card shows it beside the others. */
export interface TakeView {
  /** 1 for what the run first made, 2… for each retake. */
  take: number;
  /** True for the take later steps use (the file at the pipeline's path). */
  picked: boolean;
  status: "succeeded" | "failed" | "running";
  prompt?: string;
  /** Credits spent on this take, as the run's ledger says. */
  credits?: number;
  /** Attempts this take took (its own, not those of the takes before it). */
  attempts?: number;
  jobId?: string;
  /** The take's own file (`clips/scene-1.take-1.mp4`), or the picked one's path until kept. */
  clip?: RunFile;
  thumbnail?: RunFile;
  error?: string;
}

/** One step's line of the cost table. */
export interface StepRow {
  id: string;
  kind: string;
  fanOut: boolean;
  status: string;
  items: number;
  durationMs?: number;
  totals: RunTotals;
  /** What the step was expected to cost before the run. */
  estimate?: StepEstimate;
  /** Credits, tokens and videos of sub-pipelines started by this step's tools (in `totals`). */
  subRuns: SubRunRow[];
}

/** A sub-pipeline run started by a tool. */
export interface SubRunRow {
  name: string;
  pipeline?: string;
  status: string;
  totals: RunTotals;
  report?: RunFile;
}

/** A phase of a timeline bar. */
export interface TimelinePhase {
  /** A job's phases (waiting for a slot, submitted, polling, downloading), or a unit's work. */
  phase: "waiting" | "submitted" | "polling" | "downloading" | "work";
  /** What the work is, in its kind's word (its report's `work`: "chat", "ffmpeg"; else "running"). */
  work?: string;
  start: number;
  end: number;
}

/** One row of the timeline: a step, or one item of a fan-out. */
export interface TimelineRow {
  step: string;
  index?: number;
  kind: string;
  status: string;
  phases: TimelinePhase[];
}

/** One chat unit (a chat step or one item) with its conversation. */
export interface ChatUnit {
  step: string;
  index?: number;
  model?: string;
  status: string;
  text?: string;
  json?: unknown;
  messages: ChatMessageView[];
  /** Tokens the run paid for, as the ledger (and the cost table) says: 0 when cached. */
  tokens?: number;
  /** For an answer served from the cache: the tokens it took when it was made, saved now. */
  savedTokens?: number;
}

/** A message of a conversation as the page shows it. */
export interface ChatMessageView {
  role: string;
  content: string;
  toolCalls: { name: string; arguments: string }[];
  toolCallId?: string;
}

/** A failure of a step or an item. */
export interface ErrorEntry {
  step: string;
  index?: number;
  name: string;
  code?: string;
  message: string;
  /** file:line:column of the step in the pipeline. */
  location?: string;
}

/** A gate (`approve:` step): its question, what it showed, and where it stands. */
export interface ApprovalGate {
  step: string;
  message: string;
  /** The values it showed (earlier outputs, as evaluated when the run reached it). */
  show: unknown[];
  /**
   * For each shown value that is an image file of the run (or a list of them), those files
   * (the page shows them as thumbnails); undefined for any other value. Same order as `show`.
   */
  showImages: (RunFile[] | undefined)[];
  /** `pending` while the run has not reached it; `timed_out` when its timeout passed. */
  state: "pending" | "waiting" | "approved" | "rejected" | "timed_out";
  since?: string;
  deadline?: string;
  by?: string;
  at?: string;
  note?: string;
}

/** Everything the page shows, read from a run directory. */
export interface ReportModel {
  name: string;
  runId?: string;
  pipelinePath?: string;
  inputs: Record<string, unknown>;
  service: string;
  startedAt?: string;
  resumedAt?: string;
  endedAt?: string;
  /** How long its sessions worked on the run (wall time also counts the time between them). */
  active?: ActiveTime;
  status: string;
  exitReason?: string;
  /** True when the run has not ended (the page shows what is known so far). */
  inProgress: boolean;
  steps: StepRow[];
  /** The run's ledger: spent, saved, tokens, jobs (and `estimatedCredits`). */
  totals: RunTotals;
  /** What the run was expected to cost, worked out before its first paid request. */
  estimate?: RunEstimate;
  cards: StoryboardCard[];
  /** Final videos, each with a poster frame made for the page. */
  finalVideos: (RunFile & { poster?: RunFile })[];
  finalImages: RunFile[];
  /**
   * The images the run's `media` units made (every image file their outputs name), by step
   * in pipeline order and unit by unit: character sheets, keyframes.
   */
  madeImages: { step: string; files: RunFile[] }[];
  /** Sound files the run's media steps made (a narration per scene), step by step: played on the page. */
  madeSounds: { step: string; files: RunFile[] }[];
  timeline: { start: number; end: number; rows: TimelineRow[]; resumes: number[] };
  chats: ChatUnit[];
  errors: ErrorEntry[];
  /** The run's gates, in pipeline order. */
  approvals: ApprovalGate[];
  /** While the run waits at its gates: what the steps behind them are expected to cost. */
  next?: RunEstimate;
  generatedAt: string;
}
