import { handleSpeech } from "../audio/handle-speech.js";
import { handleTranscriptions } from "../audio/handle-transcriptions.js";
import { handleChatCompletion } from "../chat/handle-chat-completion.js";
import type { FaultRoute } from "../faults/fault-injector.js";
import {
  handleImageEdits,
  handleImageFile,
  handleImageGenerations,
} from "../images/handle-images.js";
import { handleListModels, handleRetrieveModel } from "../models/handle-models.js";
import { handleReceivedRequests, handleStats } from "../stats/handle-stats.js";
import type { RouteHandler } from "./context.js";

/** A paid route answered at once: its requests count as held while they are answered. */
function held(handler: RouteHandler): RouteHandler {
  return async (context, simulator) => {
    simulator.stats.requestHeld();
    try {
      await handler(context, simulator);
    } finally {
      simulator.stats.requestReleased();
    }
  };
}

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

/** The routes every dialect serves: models, chat, images, audio (a dialect adds its video routes). */
export const sharedRoutes: readonly Route[] = [
  { pattern: "/v1/models", methods: { GET: handleListModels }, faultRoute: "models" },
  { pattern: "/v1/models/:id", methods: { GET: handleRetrieveModel }, faultRoute: "models" },
  { pattern: "/v1/chat/completions", methods: { POST: handleChatCompletion }, faultRoute: "chat" },
  {
    pattern: "/v1/images/generations",
    methods: { POST: handleImageGenerations },
    faultRoute: "images",
  },
  { pattern: "/v1/images/edits", methods: { POST: handleImageEdits }, faultRoute: "images" },
  {
    pattern: "/v1/images/files/:id",
    methods: { GET: handleImageFile },
    faultRoute: "images",
    public: true,
  },
  {
    pattern: "/v1/audio/speech",
    methods: { POST: held(handleSpeech) },
    faultRoute: "audio.speech",
  },
  {
    pattern: "/v1/audio/transcriptions",
    methods: { POST: held(handleTranscriptions) },
    faultRoute: "audio.transcriptions",
  },
  { pattern: "/_simulator/stats", methods: { GET: handleStats } },
  { pattern: "/_simulator/requests", methods: { GET: handleReceivedRequests } },
];

/** The route a path matches among `routes`, its parameters, and the handler for `method` if allowed. */
export function matchRoute(method: string, pathname: string, routes: readonly Route[]) {
  const segments = pathname.replace(/\/+$/, "").split("/");
  for (const route of routes) {
    if (route.match) {
      const params = route.match(pathname);
      if (params && route.methods[method]) {
        return {
          route,
          params,
          handler: route.methods[method],
          allowed: Object.keys(route.methods),
        };
      }
      continue;
    }
    const parts = route.pattern.split("/");
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (const [index, part] of parts.entries()) {
      const segment = segments[index] ?? "";
      if (part.startsWith(":") && segment !== "")
        params[part.slice(1)] = decodeURIComponent(segment);
      else if (part !== segment) {
        matched = false;
        break;
      }
    }
    if (matched) {
      return { route, params, handler: route.methods[method], allowed: Object.keys(route.methods) };
    }
  }
  return { route: undefined, params: {}, handler: undefined, allowed: [] as string[] };
}
