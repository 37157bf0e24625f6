import { existsSync } from "node:fs";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, runCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-batch-rows-key-5a7c9e";
const APPROVE = path.join(EXAMPLES, "storyboard", "approve.yaml");

let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.05, seed: 5 });
});
afterAll(async () => {
  await simulator?.close();
});

const connection = () => ["--base-url", simulator.url, "--api-key", API_KEY];
/** Video jobs the simulator made, from its own state. */
const jobs = () => simulator.stats().videoJobs.created;

type Event = { type: string; row?: string; [key: string]: unknown };
function events(stdout: string): Event[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Event);
}

describe("a batch's rows (built CLI, simulator on loopback)", () => {
  it("stops rows at their gates (exit 4, the command per row), approves by row and resumes", async () => {
    const work = await tempDir();
    try {
      const rows = path.join(work.dir, "stories.jsonl");
      await writeFile(
        rows,
        [
          { id: "kite", story: "A kite named Ada climbs over the dunes.", scenes: 1 },
          { id: "boat", story: "A paper boat named Bo sails down a gutter.", scenes: 1 },
        ]
          .map((row) => JSON.stringify(row))
          .join("\n"),
      );
      const before = jobs();
      const first = await runCli(
        ["batch", APPROVE, "--inputs", rows, "--no-cache", "--json", ...connection()],
        { cwd: work.dir },
      );
      expect(first.code, first.stderr).toBe(4);
      const seen = events(first.stdout);
      const batchDir = String(seen.find((e) => e.type === "batch.start")?.batchDir);
      const shown = path.relative(work.dir, batchDir);
      expect(first.stderr).toMatch(/2 rows wait at a gate; approve each:/);
      expect(first.stderr).toContain(`reelsmith approve ${shown} --row kite`);
      expect(first.stderr).toContain(`reelsmith approve ${shown} --row boat`);
      expect(jobs() - before).toBe(0);

      // A batch without --row names the rows that wait.
      const unnamed = await runCli(["approve", shown], { cwd: work.dir });
      expect(unnamed.code).toBe(2);
      expect(unnamed.stderr).toMatch(/is a batch: say which row's gate to decide/);
      expect(unnamed.stderr).toMatch(/rows waiting: (kite, boat|boat, kite)/);
      const unknown = await runCli(["approve", shown, "--row", "nope"], { cwd: work.dir });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/has no row nope/);

      const kite = await runCli(["approve", shown, "--row", "kite", "--by", "ana"], {
        cwd: work.dir,
      });
      expect(kite.code, kite.stderr).toBe(0);
      expect(kite.stdout).toMatch(/approved "review" of .*kite by ana/);
      expect(kite.stdout).toContain(`continue with: reelsmith resume ${shown}`);
      const boat = await runCli(["approve", shown, "--row", "boat"], { cwd: work.dir });
      expect(boat.code, boat.stderr).toBe(0);

      const resumed = await runCli(["resume", shown, "--json", ...connection()], {
        cwd: work.dir,
      });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(events(resumed.stdout).at(-1)).toMatchObject({
        type: "batch.end",
        status: "succeeded",
      });
      // One clip per row, paid once each, only after its approval.
      expect(jobs() - before).toBe(2);
    } finally {
      await work.remove();
    }
  });

  it("keeps its paths relative: a batch directory moved with its checkout resumes", async () => {
    const work = await tempDir();
    try {
      // A checkout: the pipeline and its inputs file, the batch under runs/.
      const checkout = path.join(work.dir, "checkout-a");
      await mkdir(checkout);
      await cp(path.join(EXAMPLES, "storyboard"), path.join(checkout, "storyboard"), {
        recursive: true,
      });
      const stories = [
        "A lantern floats over a quiet harbour.",
        "A snail crosses a garden wall at dusk.",
        "A tin robot waters a sunflower.",
      ];
      await writeFile(
        path.join(checkout, "stories.csv"),
        `story,scenes\n${stories.map((s) => `"${s}",1`).join("\n")}\n`,
      );
      const before = jobs();
      // The budget stops the batch after two rows.
      const first = await runCli(
        [
          "batch",
          "storyboard/pipeline.yaml",
          "--inputs",
          "stories.csv",
          "--max-credits",
          "18",
          "--parallel",
          "1",
          "--json",
          ...connection(),
        ],
        { cwd: checkout },
      );
      expect(first.code, first.stderr).toBe(3);
      const batchDir = String(events(first.stdout).find((e) => e.type === "batch.start")?.batchDir);
      expect(jobs() - before).toBe(2);
      const summary = JSON.parse(await readFile(path.join(batchDir, "batch.json"), "utf8"));
      expect(summary.pipeline.path).toBe(path.join("..", "..", "storyboard", "pipeline.yaml"));
      expect(summary.inputsFile).toBe(path.join("..", "..", "stories.csv"));
      const finals = summary.rows
        .map((row: { final?: string }) => row.final)
        .filter((final: string | undefined) => final !== undefined);
      expect(finals).toHaveLength(2);
      for (const final of finals) expect(path.isAbsolute(final)).toBe(false);

      // The checkout restored elsewhere (a CI artifact), the first one gone.
      const moved = path.join(work.dir, "checkout-b");
      await cp(checkout, moved, { recursive: true });
      await rm(checkout, { recursive: true });
      const movedBatch = path.join(moved, "runs", path.basename(batchDir));
      const resumed = await runCli(
        ["resume", movedBatch, "--max-credits", "27", "--json", ...connection()],
        { cwd: moved },
      );
      expect(resumed.code, resumed.stderr).toBe(0);
      const again = events(resumed.stdout);
      expect(again.find((e) => e.type === "batch.start")).toMatchObject({ finished: 2 });
      expect(again.filter((e) => e.type === "batch.row.start")).toHaveLength(1);
      // Only the third row was paid.
      expect(jobs() - before).toBe(3);
      const after = JSON.parse(await readFile(path.join(movedBatch, "batch.json"), "utf8"));
      expect(after.status).toBe("succeeded");
      for (const row of after.rows) {
        expect(path.isAbsolute(row.final)).toBe(false);
        expect(existsSync(path.join(movedBatch, row.final))).toBe(true);
      }
      // The report finds the finals where the batch now is.
      const html = await readFile(path.join(movedBatch, "batch.html"), "utf8");
      expect(html.match(/<a class="video"/g)).toHaveLength(3);
      expect(html.match(/<img class="poster"/g)).toHaveLength(3);
    } finally {
      await work.remove();
    }
  });
});
