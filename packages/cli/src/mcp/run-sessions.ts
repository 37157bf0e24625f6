import { randomUUID } from "node:crypto";
import type { CliContext } from "../context.js";
import type { RunEvent } from "../contracts/run-event.js";
import type { RunNotifier } from "../notify/run-notifier.js";

/** What started a session. */
export type SessionKind = "run" | "resume" | "retake" | "pick" | "approve" | "batch";

/** A run (or a resume, retake or pick of one) this server drives in the background. */
export interface RunSession {
  /** This server's id of the call. */
  id: string;
  kind: SessionKind;
  /** The run's id and directory, once its `run.start` event came. */
  runId?: string;
  runDir?: string;
  /** `running` until the call returned; then its exit code says how it ended. */
  state: "running" | "ended";
  exitCode?: number;
  /** The run's status as its last `run.end` said. */
  status?: string;
  /** The report written when it ended. */
  report?: string;
  /** The error a call that broke off threw. */
  error?: { code: string; message: string; hint?: string };
  /** True once a gentle stop was asked for. */
  stopping: boolean;
  /** The last lines the run printed (its notes: how it ended, what to do next). */
  notes: string[];
  /** Ask for a gentle stop: nothing new starts, the jobs paid for are waited for. */
  stop(): void;
  /** Settles when the call returned or threw. */
  done: Promise<void>;
}

/**
 * What a session's body that drives something other than one run (a batch) says of it: its
 * id and directory once they are known, and how it ended.
 */
export interface SessionProgress {
  started(id: string, dir: string): void;
  ended(status: string): void;
}

/**
 * The body of a session: the CLI's own call with the session's context and notifier (a run's
 * events reach it), or `progress` for a batch.
 */
export type SessionBody = (
  context: CliContext,
  notifier: RunNotifier,
  progress: SessionProgress,
) => Promise<number>;

const KEPT_NOTES = 30;

/**
 * The background runs of a long-lived server. Each runs the CLI's own `executeRun` path with
 * a context of its own: output is kept as notes (never on the server's stdout, the protocol's
 * channel), its first Ctrl-C is its `stop()` (the runner's `stopSignal`), and the server's own
 * signals still reach it.
 *
 * @example
 * const sessions = createRunSessions(context);
 * const session = await sessions.start("run", (ctx, notifier) => executeRun({ pipeline, notifier }, ctx));
 * session.runDir; // known at once
 */
export function createRunSessions(context: CliContext) {
  const sessions: RunSession[] = [];
  return {
    /**
     * Start a session; resolves once the run's directory is known (its `run.start`), or with
     * the session ended when the call returned first; rejects when the call threw first.
     */
    start(
      kind: SessionKind,
      body: SessionBody,
      hooks: { onStart?: (runDir: string) => void; onEnd?: () => void } = {},
    ): Promise<RunSession> {
      const stopper = new AbortController();
      const notes: string[] = [];
      const sink = {
        write(text: string) {
          for (const line of String(text).split("\n")) {
            if (line.trim()) notes.push(line);
          }
          if (notes.length > KEPT_NOTES) notes.splice(0, notes.length - KEPT_NOTES);
        },
      };
      const sessionContext: CliContext = {
        ...context,
        stdout: sink,
        stderr: sink,
        signal: AbortSignal.any([stopper.signal, context.signal]),
      };
      let started: (session: RunSession) => void = () => undefined;
      const ready = new Promise<RunSession>((resolve) => {
        started = resolve;
      });
      const session: RunSession = {
        id: randomUUID(),
        kind,
        state: "running",
        stopping: false,
        notes,
        stop() {
          session.stopping = true;
          stopper.abort();
        },
        done: Promise.resolve(),
      };
      const progress: SessionProgress = {
        started(id, dir) {
          session.runId = id;
          session.runDir = dir;
          hooks.onStart?.(dir);
          started(session);
        },
        ended(status) {
          session.status = status;
        },
      };
      const notifier: RunNotifier = {
        pipeline: () => undefined,
        event(event: RunEvent) {
          if (event.type === "run.start") progress.started(event.runId, event.runDir);
          else if (event.type === "run.end") progress.ended(event.status);
        },
        ended: async (ending) => {
          if (ending.report) session.report = ending.report;
          return [];
        },
        failed: async () => [],
      };
      let failure: unknown;
      session.done = body(sessionContext, notifier, progress).then(
        (code) => {
          session.exitCode = code;
        },
        (error: unknown) => {
          failure = error;
          const like = (error ?? {}) as { code?: unknown; message?: unknown; hint?: unknown };
          session.error = {
            code: typeof like.code === "string" ? like.code : "internal_error",
            message: typeof like.message === "string" ? like.message : String(error),
            ...(typeof like.hint === "string" ? { hint: like.hint } : {}),
          };
        },
      );
      sessions.push(session);
      void session.done.finally(() => {
        session.state = "ended";
        hooks.onEnd?.();
        started(session);
      });
      return ready.then((value) => {
        if (!value.runDir && failure !== undefined) {
          sessions.splice(sessions.indexOf(value), 1);
          throw failure;
        }
        return value;
      });
    },
    /** The newest session of a run (by its id or directory). */
    find(run: { runId?: string; runDir?: string }): RunSession | undefined {
      for (let index = sessions.length - 1; index >= 0; index -= 1) {
        const session = sessions[index];
        if (!session) continue;
        if (run.runId !== undefined && session.runId === run.runId) return session;
        if (run.runDir !== undefined && session.runDir === run.runDir) return session;
      }
      return undefined;
    },
    /** Every session, oldest first. */
    all(): readonly RunSession[] {
      return sessions;
    },
    /** Stop every running session gently and wait for them all to settle. */
    async stopAll(): Promise<void> {
      for (const session of sessions) if (session.state === "running") session.stop();
      await Promise.all(sessions.map((session) => session.done));
    },
  };
}

/** What {@link createRunSessions} returns. */
export type RunSessions = ReturnType<typeof createRunSessions>;
