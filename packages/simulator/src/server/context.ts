import type { IncomingMessage, ServerResponse } from "node:http";
import type { ProviderName } from "@reelsmith/core/catalog";
import type { SpokenRegistry } from "../audio/spoken-registry.js";
import type { ServiceCatalog } from "../catalog/service-catalog.js";
import type { ReplyStyle } from "../chat/generate-reply.js";
import type { DialectConventions } from "../dialects/dialect-conventions.js";
import type { ChosenFault, FaultInjector, FaultRoute } from "../faults/fault-injector.js";
import type { StatsRecorder } from "../stats/simulator-stats.js";
import type { ReceivedVideoRequest } from "../videos/received-video-request.js";
import type { VideoService } from "../videos/video-service.js";
import type { AnswerStore } from "./answer-store.js";
import type { Logger } from "./logger.js";

/** What every handler can reach: settings and the simulator's shared state. */
export interface SimulatorContext {
  apiKey: string;
  /** Base URL without `/v1`, known once listening. */
  url: string;
  seed: number;
  /** How the chat model writes text replies. */
  replies: ReplyStyle;
  timeScale: number;
  maxBodyBytes: number;
  /** Whether a repeated `Idempotency-Key` answers with the first request's result. */
  honoursIdempotencyKeys: boolean;
  /** Pause between streamed chat chunks, in ms. */
  chunkDelayMs: number;
  stats: StatsRecorder;
  faults: FaultInjector;
  /** The models served: the simulator's own, or a profile's. */
  catalog: ServiceCatalog;
  /** The provider whose video API it speaks (`reference`, `openai`, `fal`, …). */
  dialect: ProviderName;
  /** How it speaks it: auth scheme, job view, error bodies (its routes are among `routes`). */
  videoDialect: DialectConventions;
  /** The shared routes and the dialect's video routes, in the order they are matched. */
  routes: readonly Route[];
  /** Every `POST /v1/videos` body received, in order. */
  received: ReceivedVideoRequest[];
  videos: VideoService;
  /** Where renders and scratch files go. */
  dataDir: string;
  /** Answers of images, speech and transcriptions by Idempotency-Key. */
  answers: AnswerStore;
  /** Images answered as `url`, by id. */
  imageFiles: Map<string, Buffer>;
  /** Runs image renders and speech synthesis, at most `renderConcurrency` at a time. */
  renders: <T>(work: () => Promise<T>) => Promise<T>;
  /** Audio the simulator spoke, recognised by its transcriptions. */
  spoken: SpokenRegistry;
  /** Aborted when the simulator closes. */
  closing: AbortSignal;
  /** Controllers of the requests in flight; all aborted by `close()`. */
  activeRequests: Set<AbortController>;
  logger: Logger | undefined;
}

/** One request being handled. */
export interface RequestContext {
  request: IncomingMessage;
  response: ServerResponse;
  params: Record<string, string>;
  requestId: string;
  /** Aborted when the client goes away or the simulator closes. */
  signal: AbortSignal;
  /** A drop or stall fault still to apply (a streaming handler applies and clears it itself). */
  fault: ChosenFault | undefined;
  /** The body as a JSON object (413, 400 on problems). */
  readJson(): Promise<Record<string, unknown>>;
  /** Apply a pending drop/stall fault; false when nothing may be sent any more. */
  beforeRespond(): Promise<boolean>;
  /** {@link RequestContext.beforeRespond} then a JSON response. */
  send(status: number, body: unknown, headers?: Record<string, string>): Promise<void>;
}

/** A route handler. */
export type RouteHandler = (request: RequestContext, simulator: SimulatorContext) => Promise<void>;

/** One route of the service: a path pattern and a handler per method. */
export interface Route {
  pattern: string;
  methods: Partial<Record<string, RouteHandler>>;
  /** Fault target family; none for the stats route, which is never faulted. */
  faultRoute?: FaultRoute;
  /** A different fault target for some methods of the path (GET /v1/videos lists jobs). */
  faultRouteByMethod?: Partial<Record<string, FaultRoute>>;
  /** Served without a key (an image answered as a url: its id is the secret). */
  public?: boolean;
  /**
   * Matches paths of no fixed length (fal's `/{endpoint…}`): the path's parameters, or
   * undefined when it is not this route's. Takes the place of `pattern` when given.
   */
  match?: (pathname: string) => Record<string, string> | undefined;
}
