import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ProviderName, providerAccess } from "@reelsmith/core/catalog";
import type { ProviderProfile, VideoModelCatalog } from "@reelsmith/core/profile";
import pLimit from "p-limit";
import { createSpokenRegistry } from "../audio/spoken-registry.js";
import { catalogFromProfile, defaultCatalog } from "../catalog/service-catalog.js";
import type { ReplyStyle } from "../chat/generate-reply.js";
import { simulatorDialect } from "../dialects/registry.js";
import { createFaultInjector } from "../faults/fault-injector.js";
import type { FaultSpec } from "../faults/fault-spec.js";
import { createStatsRecorder, type SimulatorStats } from "../stats/simulator-stats.js";
import type { ReceivedVideoRequest } from "../videos/received-video-request.js";
import { createVideoService } from "../videos/video-service.js";
import { createAnswerStore } from "./answer-store.js";
import type { SimulatorContext } from "./context.js";
import { handleRequest } from "./handle-request.js";
import { defaultMaxBodyBytes } from "./http-io.js";
import type { Logger } from "./logger.js";
import { sharedRoutes } from "./routes.js";

/** Options of {@link startSimulator}. */
export interface SimulatorOptions {
  /** Port to listen on (default 0: a free one). */
  port?: number;
  /** Interface to bind (default 127.0.0.1: loopback only). */
  host?: string;
  /** Bearer key clients must send (default: a random `sk-sim-…` key, returned as `apiKey`). */
  apiKey?: string;
  /** Multiplier of every video job's duration (default 1; 0.01 makes a 4 s job take 0.2 s). */
  timeScale?: number;
  /** Seed of the deterministic chat model and of probabilistic faults (default 0). */
  seed?: number;
  /**
   * How the chat model writes text: `plausible` (default: titles, summaries, short answers)
   * or `echo` (restates the prompt: "Sure. You asked: …", for tests of what reached the model).
   */
  replies?: ReplyStyle;
  /** Faults to inject: a {@link FaultSpec} or its string form (see {@link parseFaultSpec}). */
  faults?: FaultSpec | string;
  /** Where rendered clips go (default: a temporary directory removed by `close()`). */
  dataDir?: string;
  /** Clips rendered with ffmpeg at once (default 2); images and speech have as many places of their own. */
  renderConcurrency?: number;
  /**
   * An MP4 served as the content of every completed job instead of a clip rendered for it
   * (load and memory benchmarks with hundreds of jobs). Default: render each job's clip.
   */
  clipFile?: string;
  /** Largest request body in bytes (default 16 MiB); larger bodies get a 413. */
  maxBodyBytes?: number;
  /** Pause between streamed chat chunks in ms (default 2). */
  chunkDelayMs?: number;
  /**
   * A provider profile (the parsed YAML object of `reelsmith.config.yaml`, checked with
   * `@reelsmith/core/profile`): its video models (limits, params, image support, prices) and
   * chat models (capabilities) are what the simulator lists, accepts and charges. Default: the
   * simulator's own `reel-*` models.
   */
  profile?: ProviderProfile | Record<string, unknown>;
  /**
   * The provider whose video API it speaks, a name of core's provider registry: `reference`
   * (the service interface), `openai` (OpenAI's `/v1/videos`: `queued`/`in_progress`,
   * `created_at`, error objects, no credits), `fal` (fal's queue: `POST /{endpoint}`, `Key`
   * auth, `IN_QUEUE`/`IN_PROGRESS`/`COMPLETED`, results with the video's URL). Default: the
   * profile's `service.dialect`, else `reference`.
   */
  dialect?: ProviderName;
  /**
   * List the video models in `/v1/models` (`type: "video"` entries with their limits, params
   * and prices). Default true; false answers with the chat models only, as a service that
   * follows the interface strictly (its clients learn video models from a profile).
   */
  listVideoModels?: boolean;
  /**
   * Honour `Idempotency-Key` (default true): a repeated key answers with what the first request
   * made and is charged once. False behaves as the many services that ignore the header: every
   * request makes (and charges) anew — for tests of clients that must never resend blindly.
   */
  idempotencyKeys?: boolean;
  logger?: Logger;
}

/** A running simulator. */
export interface Simulator {
  /** Base URL, e.g. `http://127.0.0.1:54321` (no `/v1`). */
  url: string;
  /** The bearer key clients must send. */
  apiKey: string;
  /** The provider whose video API it speaks. */
  dialect: ProviderName;
  /** The video models served (the profile's, or the simulator's own). */
  videoModels: VideoModelCatalog;
  /** A copy of the counters (also at `GET /_simulator/stats`). */
  stats(): SimulatorStats;
  /**
   * Every `POST /v1/videos` body received, in order (also at `GET /_simulator/requests`): JSON
   * fields or multipart text fields, file parts with name, type, byte length and sha256.
   */
  videoRequests(): ReceivedVideoRequest[];
  /** Stop listening, cut open connections and streams, stop timers and ffmpeg work. */
  close(): Promise<void>;
}

function checkNumber(name: string, value: number | undefined, min: number, integer: boolean): void {
  if (value === undefined) return;
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value < min ||
    (integer && !Number.isInteger(value))
  ) {
    throw new TypeError(
      `Expected \`${name}\` to be ${integer ? "an integer" : "a number"} from ${min} up; got ${String(value)}`,
    );
  }
}

/** Refuses options a simulator cannot start with, naming the option. */
function checkSimulatorOptions(options: SimulatorOptions): void {
  checkNumber("port", options.port, 0, true);
  checkNumber("timeScale", options.timeScale, 0, false);
  checkNumber("renderConcurrency", options.renderConcurrency, 1, true);
  checkNumber("maxBodyBytes", options.maxBodyBytes, 1, true);
  checkNumber("chunkDelayMs", options.chunkDelayMs, 0, false);
  if (options.seed !== undefined && !Number.isFinite(options.seed))
    throw new TypeError("Expected `seed` to be a finite number");
  if (
    options.replies !== undefined &&
    options.replies !== "plausible" &&
    options.replies !== "echo"
  )
    throw new TypeError('Expected `replies` to be "plausible" or "echo"');
}

/** Starts listening on the options' host and port; resolves with the server's base URL. */
async function listen(server: Server, options: SimulatorOptions): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(
      { port: options.port ?? 0, host: options.host ?? "127.0.0.1", backlog: 4096 },
      () => {
        server.off("error", reject);
        resolve();
      },
    );
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Start the simulator: the whole service interface (chat, models, video jobs, images, speech
 * and transcriptions) over HTTP.
 *
 * @example
 * const simulator = await startSimulator({ timeScale: 0.01 });
 * const client = new OpenAI({ baseURL: `${simulator.url}/v1`, apiKey: simulator.apiKey });
 * // ...
 * await simulator.close();
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  checkSimulatorOptions(options);
  const seed = options.seed ?? 0;
  const faults = createFaultInjector(options.faults, seed);
  const catalog =
    options.profile === undefined
      ? defaultCatalog({ listVideoModels: options.listVideoModels ?? true })
      : catalogFromProfile(options.profile, { listVideoModels: options.listVideoModels ?? true });
  const profileDialect = (options.profile as ProviderProfile | undefined)?.service?.dialect;
  const dialect = (options.dialect ?? profileDialect ?? "reference") as ProviderName;
  const videoDialect = simulatorDialect(dialect);
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), "reelsmith-simulator-")));
  const closer = new AbortController();
  const stats = createStatsRecorder();
  let baseUrl = "";
  const timeScale = options.timeScale ?? 1;
  const context: SimulatorContext = {
    // A provider whose key has parts (an access key and a secret key) gets one random part each.
    apiKey:
      options.apiKey ??
      Array.from(
        { length: providerAccess(dialect).keyParts?.length ?? 1 },
        () => `sk-sim-${randomBytes(24).toString("base64url")}`,
      ).join(":"),
    url: "",
    seed,
    replies: options.replies ?? "plausible",
    timeScale,
    maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes,
    honoursIdempotencyKeys: options.idempotencyKeys !== false,
    chunkDelayMs: options.chunkDelayMs ?? 2,
    stats,
    faults,
    catalog,
    dialect,
    videoDialect,
    routes: [...(videoDialect.routes ?? []), ...sharedRoutes, ...videoDialect.videoRoutes],
    received: [],
    videos: createVideoService({
      catalog,
      dialect: videoDialect,
      timeScale,
      renderConcurrency: options.renderConcurrency ?? 2,
      ...(options.clipFile ? { clipFile: path.resolve(options.clipFile) } : {}),
      directory: path.join(dataDir, "videos"),
      stats,
      faults,
      closing: closer.signal,
      logger: options.logger,
      baseUrl: () => baseUrl,
    }),
    dataDir,
    answers: createAnswerStore(),
    imageFiles: new Map(),
    renders: pLimit(options.renderConcurrency ?? 2),
    spoken: createSpokenRegistry(),
    closing: closer.signal,
    activeRequests: new Set(),
    logger: options.logger,
  };

  const sockets = new Set<Socket>();
  const server: Server = createServer({ keepAliveTimeout: 5_000 }, (request, response) => {
    void handleRequest(request, response, context);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("clientError", (_error, socket) => socket.destroy());
  baseUrl = await listen(server, options);
  context.url = baseUrl;
  options.logger?.info?.("simulator: listening", { url: baseUrl });

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    apiKey: context.apiKey,
    dialect,
    videoModels: catalog.videoModels,
    stats: () => stats.snapshot(),
    videoRequests: () => structuredClone(context.received),
    close() {
      closing ??= (async () => {
        closer.abort();
        for (const request of context.activeRequests) request.abort();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await Promise.all([stopped, context.videos.close()]);
        if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
        options.logger?.info?.("simulator: closed", { url: baseUrl });
      })();
      return closing;
    },
  };
}
