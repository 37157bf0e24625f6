import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { ResumeError } from "../errors/resume-error.js";

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, "utf8")) as Partial<LockOwner>;
    return typeof owner.pid === "number" && typeof owner.host === "string"
      ? { pid: owner.pid, host: owner.host, since: String(owner.since ?? "") }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes `run.lock` in a run directory so that two processes never drive one run (two resumes
 * would append to one journal and race for the same jobs). A lock left by a process that is
 * gone — a `kill -9`, a crash — is taken over. Returns the function that releases it.
 *
 * @example
 * const release = acquireRunLock(runDir);
 * try { await execute(); } finally { release(); }
 */
export function acquireRunLock(runDir: string): () => void {
  const file = join(runDir, "run.lock");
  const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(file, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readOwner(file);
      if (owner && (owner.host !== me.host || alive(owner.pid))) {
        const where = owner.host === me.host ? "" : ` on ${owner.host}`;
        throw new ResumeError(
          runDir,
          `it is in use by process ${owner.pid}${where} since ${owner.since}; wait for that run to end or stop it (a lock whose process is gone is taken over)`,
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone
      continue;
    }
    writeSync(fd, `${JSON.stringify(me)}\n`);
    closeSync(fd);
    return () => {
      if (readOwner(file)?.pid === me.pid) rmSync(file, { force: true });
    };
  }
  throw new ResumeError(runDir, "its run.lock could not be taken");
}
