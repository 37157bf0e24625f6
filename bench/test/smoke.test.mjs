// Every bench script, run once at a tiny size (smoke mode): it must exit 0 and print its rows.
// Nothing here is timed or compared with a goal; the numbers of a smoke run mean nothing. This
// is what keeps `pnpm bench` from breaking unnoticed when a package it uses changes.
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { measures } from "../lib.mjs";

const folder = fileURLToPath(new URL("..", import.meta.url));

/** Runs a bench script in smoke mode; resolves with its exit code, rows and stderr. */
async function smokeRun(script) {
  const result = await promisify(execFile)(process.execPath, [`${folder}${script}`], {
    cwd: folder,
    env: { ...process.env, BENCH_SMOKE: "1" },
    maxBuffer: 1 << 20,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error) => ({ code: error.code, stdout: error.stdout ?? "", stderr: error.stderr ?? "" }),
  );
  const rows = result.stdout
    .split("\n")
    .filter((line) => line.startsWith("BENCH "))
    .map((line) => JSON.parse(line.slice("BENCH ".length)));
  return { ...result, rows };
}

describe("bench scripts, smoke mode", () => {
  it("lists every script of the folder as a measure or a measure's helper", () => {
    const listed = new Set(
      measures.flatMap((measure) => [measure.script, ...(measure.helpers ?? [])]),
    );
    const files = readdirSync(folder).filter(
      (name) =>
        /\.(mjs|yaml)$/.test(name) &&
        !["lib.mjs", "run-all.mjs", "vitest.config.mjs"].includes(name),
    );
    expect(files.filter((name) => !listed.has(name))).toEqual([]);
    expect([...listed].filter((name) => !files.includes(name))).toEqual([]);
  });

  for (const measure of measures) {
    it(`${measure.id} (${measure.script}) runs and prints its rows`, async () => {
      const { code, rows, stderr } = await smokeRun(measure.script);
      expect(code, stderr).toBe(0);
      expect(rows.length, "rows printed").toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.id.startsWith(measure.id), row.id).toBe(true);
        expect(row.measure).toEqual(expect.any(String));
        expect(row.ours).toEqual(expect.any(String));
        expect(row.baseline).toEqual(expect.any(String));
        // A ratio run-all can print (NaN or Infinity would be JSON null).
        expect(Number.isFinite(row.ratio), `${row.id} ratio ${row.ratio}`).toBe(true);
      }
    });
  }
});
