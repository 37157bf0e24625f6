/** Counters of a running simulator, as `stats()` and `GET /_simulator/stats` return them. */
export interface SimulatorStats {
  /** Requests by route (`"POST /v1/videos"`, `"GET /v1/videos/:id"`, …) then by status (`"200"`, `"dropped"`). */
  requests: Record<string, Record<string, number>>;
  /** Video jobs: `created` counts new jobs only (an idempotent replay is not a new job). */
  videoJobs: {
    created: number;
    completed: number;
    failed: number;
    byModel: Record<string, number>;
  };
  /** Credits charged for completed jobs. */
  creditsCharged: number;
  /** Chat completions answered (streamed or not). */
  chatCompletions: number;
  /** Faults injected, by kind. */
  faultsInjected: Record<string, number>;
  /** Clips rendered with ffmpeg (each job renders at most once). */
  clipsRendered: number;
  /** Most renders that ran at the same time (never above `renderConcurrency`). */
  peakConcurrentRenders: number;
}

/**
 * Mutable counters behind {@link SimulatorStats}; `snapshot()` returns a deep copy.
 *
 * @example
 * const stats = createStatsRecorder(); stats.request("GET /v1/models", 200); stats.snapshot().requests;
 */
export function createStatsRecorder() {
  const stats: SimulatorStats = {
    requests: {},
    videoJobs: { created: 0, completed: 0, failed: 0, byModel: {} },
    creditsCharged: 0,
    chatCompletions: 0,
    faultsInjected: {},
    clipsRendered: 0,
    peakConcurrentRenders: 0,
  };
  let rendering = 0;
  return {
    request(route: string, status: number | string): void {
      const byStatus = stats.requests[route] ?? {};
      stats.requests[route] = byStatus;
      const key = String(status);
      byStatus[key] = (byStatus[key] ?? 0) + 1;
    },
    fault(kind: string): void {
      stats.faultsInjected[kind] = (stats.faultsInjected[kind] ?? 0) + 1;
    },
    jobCreated(model: string): void {
      stats.videoJobs.created += 1;
      stats.videoJobs.byModel[model] = (stats.videoJobs.byModel[model] ?? 0) + 1;
    },
    jobCompleted(credits: number): void {
      stats.videoJobs.completed += 1;
      stats.creditsCharged += credits;
    },
    jobFailed(): void {
      stats.videoJobs.failed += 1;
    },
    chatCompletion(): void {
      stats.chatCompletions += 1;
    },
    renderStarted(): void {
      rendering += 1;
      stats.peakConcurrentRenders = Math.max(stats.peakConcurrentRenders, rendering);
    },
    renderEnded(succeeded: boolean): void {
      rendering -= 1;
      if (succeeded) stats.clipsRendered += 1;
    },
    snapshot(): SimulatorStats {
      return structuredClone(stats);
    },
  };
}

/** The recorder made by {@link createStatsRecorder}. */
export type StatsRecorder = ReturnType<typeof createStatsRecorder>;
