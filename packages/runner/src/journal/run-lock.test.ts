import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireRunLock } from "./run-lock.js";

describe("acquireRunLock", () => {
  it("refuses a second holder while the first is alive, and frees the lock on release", () => {
    const runDir = mkdtempSync(join(tmpdir(), "reelsmith-lock-"));
    const release = acquireRunLock(runDir);
    expect(JSON.parse(readFileSync(join(runDir, "run.lock"), "utf8")).pid).toBe(process.pid);
    expect(() => acquireRunLock(runDir)).toThrow(/in use by process \d+/);
    release();
    expect(existsSync(join(runDir, "run.lock"))).toBe(false);
    acquireRunLock(runDir)();
  });

  it("takes over a lock whose process is gone (a kill -9)", () => {
    const runDir = mkdtempSync(join(tmpdir(), "reelsmith-lock-"));
    // Pids are below 2^22 on Linux: this one cannot be running.
    const gone = { pid: 2 ** 22 + 1, host: hostname(), since: "2026-01-01T00:00:00.000Z" };
    writeFileSync(join(runDir, "run.lock"), JSON.stringify(gone));
    const release = acquireRunLock(runDir);
    expect(JSON.parse(readFileSync(join(runDir, "run.lock"), "utf8")).pid).toBe(process.pid);
    release();
  });

  it("respects a lock held from another host", () => {
    const runDir = mkdtempSync(join(tmpdir(), "reelsmith-lock-"));
    const remote = { pid: 1, host: `${hostname()}-elsewhere`, since: "2026-01-01T00:00:00.000Z" };
    writeFileSync(join(runDir, "run.lock"), JSON.stringify(remote));
    expect(() => acquireRunLock(runDir)).toThrow(/on .*-elsewhere/);
  });
});
