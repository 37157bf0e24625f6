import { writeRunEndReport } from "@reelsmith/report";
import {
  type PickRequest,
  type RetakeRequest,
  type RunEvent,
  type RunResult,
  streamPick,
  streamPipeline,
  streamRetake,
} from "@reelsmith/runner";
import { checkPick, checkRetake } from "@reelsmith/runner/internal";
import { decideApproval } from "@reelsmith/runner/runs";
import type { SessionKind, StudioHost } from "./studio-host.js";

/** What the studio asks of a run. */
export type StudioAction =
  | { action: "approve" | "reject"; step?: string; note?: string; by: string }
  | { action: "resume" }
  | { action: "retake"; retake: RetakeRequest }
  | { action: "pick"; pick: PickRequest };

/** A session of a run the studio drives (in the background, inside the studio's process). */
export interface SessionState {
  kind: SessionKind;
  /** Set once it ended. */
  result?: { status: string; error?: string };
}

/** A refused action: the page shows its message. */
export class StudioActionError extends Error {
  constructor(
    message: string,
    readonly status = 409,
  ) {
    super(message);
    this.name = "StudioActionError";
  }
}

/**
 * The sessions the studio runs: one at a time per run. An action is checked (a gate that does
 * not wait, a bad step or take: refused before anything is sent), journaled where it is a
 * decision, then its session runs in the background; `stop` stops one gently (the runner's
 * stopSignal: nothing new starts, paid jobs are waited for).
 * @example
 * const sessions = createSessions(host, () => notify());
 * await sessions.start("runs/x", { action: "pick", pick: { step: "clips", index: 1, take: 1 } });
 */
export function createSessions(host: StudioHost, changed: (runDir: string) => void) {
  const running = new Map<
    string,
    { state: SessionState; stop: AbortController; done: Promise<void> }
  >();
  const last = new Map<string, SessionState>();

  function launch(runDir: string, kind: SessionKind, action: StudioAction): void {
    const stop = new AbortController();
    const state: SessionState = { kind };
    const done = (async () => {
      const service = await host.openService(runDir, kind);
      try {
        const options = { ...service.options, resume: runDir, stopSignal: stop.signal };
        const stream =
          action.action === "retake"
            ? streamRetake(runDir, action.retake, options)
            : action.action === "pick"
              ? streamPick(runDir, action.pick, options)
              : streamPipeline(undefined, options);
        for await (const _event of stream as AsyncIterable<RunEvent>) {
          // The page follows the run's own event log; nothing to do per event here.
        }
        const result: RunResult = await stream.result;
        state.result = {
          status: result.status,
          ...(result.error ? { error: result.error.message } : {}),
        };
      } finally {
        await service.close();
      }
      // The same report.html (and posters) the CLI leaves after a session.
      // A report that cannot be written leaves the run as it ended.
      await writeRunEndReport(runDir, { secrets: [...(host.secrets ?? [])] });
    })()
      .catch((error: unknown) => {
        state.result = {
          status: "failed",
          error: error instanceof Error ? error.message : String(error),
        };
      })
      .finally(() => {
        running.delete(runDir);
        last.set(runDir, state);
        changed(runDir);
      });
    running.set(runDir, { state, stop, done });
    changed(runDir);
  }

  return {
    /** Checks and starts an action; resolves once it is journaled and its session started. */
    async start(runDir: string, action: StudioAction): Promise<{ started: SessionKind | "none" }> {
      if (running.has(runDir)) {
        throw new StudioActionError("this run has a session going: wait for it, or cancel it");
      }
      if (action.action === "approve" || action.action === "reject") {
        await decideApproval(runDir, {
          approved: action.action === "approve",
          by: action.by,
          ...(action.step ? { step: action.step } : {}),
          ...(action.note ? { note: action.note } : {}),
        });
        // As `reelsmith approve --continue`: the run goes on (a rejected one ends rejected).
        launch(runDir, "resume", { action: "resume" });
        return { started: "resume" };
      }
      if (action.action === "retake") await checkRetake(runDir, action.retake);
      if (action.action === "pick") await checkPick(runDir, action.pick);
      launch(runDir, action.action, action);
      return { started: action.action };
    },
    /** Stops the run's session gently; false when this studio runs none for it. */
    stop(runDir: string): boolean {
      const session = running.get(runDir);
      if (!session) return false;
      session.stop.abort();
      return true;
    },
    /** The session going on for a run, or the last one that ended. */
    state(runDir: string): { running?: SessionState; last?: SessionState } {
      const going = running.get(runDir)?.state;
      const ended = last.get(runDir);
      return { ...(going ? { running: going } : {}), ...(ended ? { last: ended } : {}) };
    },
    /** Stops every session and waits for them (the studio is closing). */
    async close(): Promise<void> {
      for (const session of running.values()) session.stop.abort();
      await Promise.all([...running.values()].map((session) => session.done));
    },
  };
}

/** The studio's sessions. */
export type Sessions = ReturnType<typeof createSessions>;
