import { exactAmount } from "@reelsmith/core/catalog";

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
  /**
   * Charged: completed video jobs, images, speech and transcriptions (replays are free), each
   * in the unit its model is priced in (credits, or a profile's provider `unit:`, exactly).
   */
  creditsCharged: number;
  /** {@link SimulatorStats.creditsCharged} by endpoint. */
  creditsByEndpoint: { videos: number; images: number; speech: number; transcriptions: number };
  /** Image requests answered (generations and edits; a replay is not counted) and images made. */
  images: { requests: number; made: number; edits: number; byModel: Record<string, number> };
  /** Speech requests answered, characters spoken and seconds of audio made. */
  speech: {
    requests: number;
    characters: number;
    seconds: number;
    byModel: Record<string, number>;
  };
  /** Transcriptions answered, those of audio the simulator made itself, and seconds heard. */
  transcriptions: { requests: number; recognised: number; seconds: number };
  /** Chat completions answered (streamed or not). */
  chatCompletions: number;
  /** Faults injected, by kind. */
  faultsInjected: Record<string, number>;
  /** Clips rendered with ffmpeg (each job renders at most once). */
  clipsRendered: number;
  /** Most renders that ran at the same time (never above `renderConcurrency`). */
  peakConcurrentRenders: number;
  /** Video jobs not yet completed or failed right now (created, pending or processing). */
  jobsInFlight: number;
  /** Most video jobs that were in flight at the same time. */
  peakConcurrentJobs: number;
  /**
   * Paid requests the account holds right now: video jobs in flight, requests on a queue
   * (fal's images and speech) from their submission until their result is first fetched, and
   * speech and transcriptions answered at once (`/v1/audio/…`) while they are answered.
   */
  requestsInFlight: number;
  /** Most paid requests held at the same time ({@link SimulatorStats.requestsInFlight}). */
  peakConcurrentRequests: number;
  /** By route: the most requests answered within any 60 s (real time) window. */
  peakRequestsPerMinute: Record<string, number>;
}

/** Width of the sliding window of `peakRequestsPerMinute`. */
const minuteMs = 60_000;

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
    creditsByEndpoint: { videos: 0, images: 0, speech: 0, transcriptions: 0 },
    images: { requests: 0, made: 0, edits: 0, byModel: {} },
    speech: { requests: 0, characters: 0, seconds: 0, byModel: {} },
    transcriptions: { requests: 0, recognised: 0, seconds: 0 },
    chatCompletions: 0,
    faultsInjected: {},
    clipsRendered: 0,
    peakConcurrentRenders: 0,
    jobsInFlight: 0,
    peakConcurrentJobs: 0,
    requestsInFlight: 0,
    peakConcurrentRequests: 0,
    peakRequestsPerMinute: {},
  };
  let rendering = 0;
  // Summed to 1e-9: a bill in dollars (0.05 + 0.3) is exact, as its prices are.
  const charged = (endpoint: keyof SimulatorStats["creditsByEndpoint"], amount: number): void => {
    stats.creditsCharged = exactAmount(stats.creditsCharged + amount);
    stats.creditsByEndpoint[endpoint] = exactAmount(stats.creditsByEndpoint[endpoint] + amount);
  };
  const held = (change: 1 | -1): void => {
    stats.requestsInFlight += change;
    stats.peakConcurrentRequests = Math.max(stats.peakConcurrentRequests, stats.requestsInFlight);
  };
  // Per route, the times of the requests of the last minute, oldest first.
  const recent = new Map<string, number[]>();
  const countInWindow = (route: string): void => {
    const now = Date.now();
    const times = recent.get(route) ?? [];
    recent.set(route, times);
    times.push(now);
    let drop = 0;
    while (drop < times.length && (times[drop] ?? now) <= now - minuteMs) drop += 1;
    if (drop > 0) times.splice(0, drop);
    const peak = stats.peakRequestsPerMinute[route] ?? 0;
    stats.peakRequestsPerMinute[route] = Math.max(peak, times.length);
  };
  return {
    request(route: string, status: number | string): void {
      const byStatus = stats.requests[route] ?? {};
      stats.requests[route] = byStatus;
      const key = String(status);
      byStatus[key] = (byStatus[key] ?? 0) + 1;
      countInWindow(route);
    },
    fault(kind: string): void {
      stats.faultsInjected[kind] = (stats.faultsInjected[kind] ?? 0) + 1;
    },
    jobCreated(model: string): void {
      stats.videoJobs.created += 1;
      stats.videoJobs.byModel[model] = (stats.videoJobs.byModel[model] ?? 0) + 1;
      stats.jobsInFlight += 1;
      stats.peakConcurrentJobs = Math.max(stats.peakConcurrentJobs, stats.jobsInFlight);
      held(1);
    },
    jobCompleted(credits: number): void {
      stats.videoJobs.completed += 1;
      charged("videos", credits);
      stats.jobsInFlight -= 1;
      held(-1);
    },
    /** One image request answered: `count` images of `model`, `credits` charged. */
    imagesMade(model: string, count: number, edit: boolean, credits: number): void {
      stats.images.requests += 1;
      stats.images.made += count;
      if (edit) stats.images.edits += 1;
      stats.images.byModel[model] = (stats.images.byModel[model] ?? 0) + count;
      charged("images", credits);
    },
    /** One speech request answered. */
    speechMade(model: string, characters: number, seconds: number, credits: number): void {
      stats.speech.requests += 1;
      stats.speech.characters += characters;
      stats.speech.seconds += seconds;
      stats.speech.byModel[model] = (stats.speech.byModel[model] ?? 0) + 1;
      charged("speech", credits);
    },
    /** One transcription answered; `recognised` when the audio was the simulator's own. */
    transcribed(seconds: number, recognised: boolean, credits: number): void {
      stats.transcriptions.requests += 1;
      if (recognised) stats.transcriptions.recognised += 1;
      stats.transcriptions.seconds += seconds;
      charged("transcriptions", credits);
    },
    jobFailed(): void {
      stats.videoJobs.failed += 1;
      stats.jobsInFlight -= 1;
      held(-1);
    },
    /** A paid request is held: a queued one until its result is fetched, else while answered. */
    requestHeld(): void {
      held(1);
    },
    /** A held request's result was fetched (or answered), or its submission refused. */
    requestReleased(): void {
      held(-1);
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
