import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

/**
 * A temporary directory created before a test file's tests and removed after them.
 *
 * @example
 * const work = useTempDirectory();
 * it("writes", () => path.join(work(), "a.mp4"));
 */
export function useTempDirectory(): () => string {
  let directory = "";
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "reelsmith-media-test-"));
  });
  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });
  return () => directory;
}
