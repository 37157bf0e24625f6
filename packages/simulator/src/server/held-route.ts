import type { RouteHandler } from "./context.js";

/**
 * A paid route answered at once (speech, a transcription): each of its requests counts as held
 * in the simulator's stats (`requestsInFlight`, `peakConcurrentRequests`) while it is answered,
 * whatever dialect serves it.
 * @example { pattern: "/v1/audio/speech", methods: { POST: held(handleSpeech) } }
 */
export function held(handler: RouteHandler): RouteHandler {
  return async (context, simulator) => {
    simulator.stats.requestHeld();
    try {
      await handler(context, simulator);
    } finally {
      simulator.stats.requestReleased();
    }
  };
}
