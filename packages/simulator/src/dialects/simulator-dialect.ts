import type { Route } from "../server/context.js";
import type { DialectConventions } from "./dialect-conventions.js";

/**
 * How the simulator speaks one provider (a name of core's provider registry): its video
 * routes, its auth scheme, its job view and its error bodies. One folder per dialect under
 * `dialects/`, one line in `dialects/registry.ts`.
 *
 * @example
 * ```ts
 * const dialect = simulatorDialect("fal"); // dialect.authScheme === "Key"
 * ```
 */
export interface SimulatorDialect extends DialectConventions {
  /** Its own routes, matched before the shared ones (a provider's own `GET /v1/models`). */
  readonly routes?: readonly Route[];
  /** The routes of its video API (matched after the shared chat, models, image and audio routes). */
  readonly videoRoutes: readonly Route[];
}
