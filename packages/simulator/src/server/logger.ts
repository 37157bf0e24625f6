/**
 * Where the simulator reports what it does (it never prints). Same shape as `@reelsmith/core`'s.
 *
 * @example
 * startSimulator({ logger: { debug: (message, fields) => myLog.debug(fields, message) } });
 */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
  error?(message: string, fields?: Record<string, unknown>): void;
}
