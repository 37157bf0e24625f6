import type { RouteHandler } from "../server/context.js";

/** `GET /_simulator/stats`: the simulator's counters as JSON (same bearer auth). */
export const handleStats: RouteHandler = async (context, simulator) => {
  await context.send(200, simulator.stats.snapshot(), { "cache-control": "no-store" });
};

/**
 * `GET /_simulator/requests`: `{ videos: [...] }`, every `POST /v1/videos` body received, in
 * order: its JSON fields or multipart text fields, each file part's name, type, byte length
 * and sha256, the Idempotency-Key, and the status answered.
 */
export const handleReceivedRequests: RouteHandler = async (context, simulator) => {
  await context.send(
    200,
    { videos: structuredClone(simulator.received) },
    {
      "cache-control": "no-store",
    },
  );
};
