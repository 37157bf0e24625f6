import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const helper = fileURLToPath(new URL("./helpers/unpack-chromium.mjs", import.meta.url));
const browser = fileURLToPath(new URL("./helpers/launch-for-test.mjs", import.meta.url));

/** Runs `node -e script` with TMPDIR pointing at `dir`; resolves with its exit code and output. */
function child(
  dir: string,
  script: string,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: dir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    proc.stdout.on("data", (chunk) => {
      out += chunk;
    });
    proc.stderr.on("data", (chunk) => {
      err += chunk;
    });
    proc.on("close", (code) => resolve({ code, out, err }));
  });
}

describe("Chromium on a machine that never unpacked it", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("is unpacked once by several processes at the same time, and each of them launches it", async () => {
    const empty = await mkdtemp(join(tmpdir(), "reelsmith-fresh-tmp-"));
    dirs.push(empty);
    const script = `
      const { unpackChromium } = await import(${JSON.stringify(helper)});
      const { launchUnpacked } = await import(${JSON.stringify(browser)});
      const path = await unpackChromium();
      const version = await launchUnpacked(path);
      console.log(JSON.stringify({ path, version }));
    `;
    const results = await Promise.all([1, 2, 3].map(() => child(empty, script)));
    for (const result of results) {
      expect(result.err, result.err).not.toMatch(/ETXTBSY|Error/);
      expect(result.code).toBe(0);
    }
    const answers = results.map(
      (result) => JSON.parse(result.out.trim()) as { path: string; version: string },
    );
    const paths = new Set(answers.map((answer) => answer.path));
    expect(paths.size).toBe(1);
    expect([...paths][0]).toBe(join(empty, "reelsmith-chromium-141.0.0", "chromium"));
    for (const answer of answers) expect(answer.version).toMatch(/^\d+\./);
    // One finished directory; the losers' staging copies are gone.
    const left = (await readdir(empty)).filter((name) => name.startsWith("reelsmith-chromium"));
    expect(left).toEqual(["reelsmith-chromium-141.0.0"]);
  });
});
