let lastMs = Number.NaN;
let lastIso = "";

/**
 * The current time as an ISO string (`Date#toISOString`), formatted once per millisecond:
 * a busy run stamps many events and journal records within the same one.
 * @example nowIso() // "2026-11-25T21:12:03.418Z"
 */
export function nowIso(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
