import type { DBOSClient, WorkflowStatus } from "@dbos-inc/dbos-sdk";
import type { Logger } from "../database/pool.js";

/** Waits for workflows of this database to reach a state. */
export interface WorkflowWatch {
  /**
   * Resolves with the workflow's status once `reached(status)` holds; rejects with the
   * signal's reason when `signal` aborts first. A workflow not (yet) in the database is
   * waited for like any other.
   */
  until(
    workflowID: string,
    reached: (status: WorkflowStatus) => boolean,
    signal?: AbortSignal,
  ): Promise<WorkflowStatus>;
  /** Stops watching: every wait still open is rejected. */
  close(): void;
}

interface Waiter {
  reached: (status: WorkflowStatus) => boolean;
  resolve: (status: WorkflowStatus) => void;
  reject: (reason: unknown) => void;
}

/** Statuses a workflow never leaves. */
export const terminalStatuses: ReadonlySet<string> = new Set([
  "SUCCESS",
  "ERROR",
  "CANCELLED",
  "MAX_RECOVERY_ATTEMPTS_EXCEEDED",
]);

/**
 * One watcher for all the waits of a process: every `pollIntervalMs` it reads the states of
 * every workflow someone waits for in one query (DBOS's client has no notifications), so a
 * thousand waiting units cost one query per interval, not a thousand.
 * @example const done = await watch.until(id, (s) => terminalStatuses.has(s.status));
 */
export function createWorkflowWatch(options: {
  dbos: DBOSClient;
  pollIntervalMs: number;
  logger?: Logger | undefined;
}): WorkflowWatch {
  const waiting = new Map<string, Set<Waiter>>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = () => {
    if (timer || closed || waiting.size === 0) return;
    timer = setTimeout(() => void check(), options.pollIntervalMs);
  };
  const check = async () => {
    try {
      const statuses = await options.dbos.listWorkflows({
        workflowIDs: [...waiting.keys()],
        loadInput: false,
        loadOutput: false,
      });
      for (const status of statuses) {
        const waiters = waiting.get(status.workflowID);
        if (!waiters) continue;
        for (const waiter of waiters) {
          if (!waiter.reached(status)) continue;
          waiters.delete(waiter);
          waiter.resolve(status);
        }
        if (waiters.size === 0) waiting.delete(status.workflowID);
      }
    } catch (error) {
      options.logger?.warn?.("workflow states not read, retrying", {
        error: (error as Error).message,
      });
    }
    timer = undefined;
    schedule();
  };
  return {
    until(workflowID, reached, signal) {
      if (closed) return Promise.reject(new Error("the workflow watch is closed"));
      return new Promise<WorkflowStatus>((resolve, reject) => {
        signal?.throwIfAborted();
        const onAbort = () => {
          waiting.get(workflowID)?.delete(waiter);
          if (waiting.get(workflowID)?.size === 0) waiting.delete(workflowID);
          reject(signal?.reason);
        };
        const waiter: Waiter = {
          reached,
          resolve: (status) => {
            signal?.removeEventListener("abort", onAbort);
            resolve(status);
          },
          reject: (reason) => {
            signal?.removeEventListener("abort", onAbort);
            reject(reason);
          },
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        let waiters = waiting.get(workflowID);
        if (!waiters) {
          waiters = new Set();
          waiting.set(workflowID, waiters);
        }
        waiters.add(waiter);
        schedule();
      });
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      for (const waiters of waiting.values()) {
        for (const waiter of waiters) waiter.reject(new Error("the workflow watch is closed"));
      }
      waiting.clear();
    },
  };
}
