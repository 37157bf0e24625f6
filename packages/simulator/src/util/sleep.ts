/**
 * Wait `ms` milliseconds (forever when `ms` is Infinity) unless `signal` aborts first.
 * Resolves true when the time passed, false when aborted; never rejects.
 *
 * @example
 * if (!(await sleep(100, signal))) return; // aborted
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      if (timer) clearTimeout(timer);
      resolve(false);
    };
    const timer = Number.isFinite(ms)
      ? setTimeout(
          () => {
            signal?.removeEventListener("abort", onAbort);
            resolve(true);
          },
          Math.max(0, ms),
        )
      : undefined;
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
