/** The kinds of fault the simulator can inject. */
export type FaultKind = "429" | "500" | "503" | "drop" | "stall" | "slow" | "fail-job";

/**
 * Which requests a rule applies to: `chat` (POST /v1/chat/completions), `videos.create`,
 * `videos.list` (GET /v1/videos), `videos.retrieve`, `videos.content`, `videos` (all four), `models`, `images` (generations, edits and their files), `audio.speech`, `audio.transcriptions`, `audio` (both), or `*` (every service
 * route; the stats route is never faulted). For `fail-job` the target is a video model id or `*`.
 */
export type FaultTarget = string;

/** One fault rule: a kind, a target, and when it fires. */
export interface FaultRule {
  kind: FaultKind;
  /** Default `*`. */
  target?: FaultTarget;
  /** Fires on each matching request with this probability (0..1), drawn from the seeded generator. */
  probability?: number;
  /** Fires on exactly these matching requests, counted from 1 per rule (e.g. [1, 2]). */
  sequence?: number[];
  /**
   * Kind-specific number: `429` → Retry-After seconds (default 1); `slow` → delay in ms before
   * answering (default 1000); `stall` → ms the response stalls before going on (default: until
   * the client gives up or the simulator closes); `drop` → content chunks sent before a stream is
   * cut (default 2).
   */
  value?: number;
}

/** Every fault rule of a simulator; the first rule that fires for a request wins. */
export interface FaultSpec {
  rules: FaultRule[];
}

/** The target names accepted for request faults. */
export const requestTargets: readonly string[] = [
  "*",
  "chat",
  "videos",
  "videos.create",
  "videos.list",
  "videos.retrieve",
  "videos.content",
  "models",
  "images",
  "audio",
  "audio.speech",
  "audio.transcriptions",
];

/** The kinds accepted by {@link parseFaultSpec}. */
export const faultKinds: readonly FaultKind[] = [
  "429",
  "500",
  "503",
  "drop",
  "stall",
  "slow",
  "fail-job",
];
