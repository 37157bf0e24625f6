import type { RouteHandler } from "../server/context.js";

/** `GET /_simulator/stats`: the simulator's counters as JSON (same bearer auth). */
export const handleStats: RouteHandler = async (context, simulator) => {
  await context.send(200, simulator.stats.snapshot(), { "cache-control": "no-store" });
};
