import { readFile } from "node:fs/promises";
import path from "node:path";
import { locateFfmpeg, probe } from "@reelsmith/media";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, runCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-init-key-4242";

let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.02 });
});
afterAll(() => simulator?.close());

const env = () => cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY });

describe("reelsmith init: the pipeline a first run starts from", () => {
  it("validates, is priced exactly before anything is sent, makes a film that costs what its plan said, and is never overwritten by accident", async () => {
    const work = await tempDir("reelsmith-init-");
    try {
      const init = await runCli(["init", "film"], { cwd: work.dir, env: env() });
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toContain("created film/pipeline.yaml");
      const file = path.join(work.dir, "film", "pipeline.yaml");
      const written = await readFile(file, "utf8");

      const validate = await runCli(["validate", file], { cwd: work.dir, env: env() });
      expect(validate.code, validate.stdout).toBe(0);
      // Against a service of its own, validate leaves the models to plan (it says so).
      expect(validate.stdout).toContain("0 errors, 2 warnings in 1 file");
      expect(validate.stdout).toContain("`reelsmith plan` checks it against");

      // The storyboard is asked for exactly as many scenes as the input says: the plan knows
      // the clips' number and price before the run, under the template's own ceiling.
      const plan = await runCli(["plan", "film/pipeline.yaml"], { cwd: work.dir, env: env() });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain("expected cost: 27 credits (budget 200)");
      expect(plan.stdout).toContain("clips  3 × 9 = 27");
      const planned = JSON.parse(
        (await runCli(["plan", "film/pipeline.yaml", "--json"], { cwd: work.dir, env: env() }))
          .stdout,
      );
      expect(planned.limits.estimate).toMatchObject({ credits: 27, complete: true });

      const charged = simulator.stats().creditsCharged;
      const run = await runCli(["run", "film/pipeline.yaml", "--json"], {
        cwd: work.dir,
        env: env(),
      });
      expect(run.code, run.stderr).toBe(0);
      const end = run.stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line))
        .find((event) => event.type === "run.end");
      expect(end).toMatchObject({
        status: "succeeded",
        totals: { credits: 27, estimatedCredits: 27, made: { videos: 3 } },
      });
      // The bill is the figure: the service charged what the plan said.
      expect(simulator.stats().creditsCharged - charged).toBe(27);
      const tools = await locateFfmpeg();
      const film = await probe(end.outputs.video, { tools });
      expect(film.duration).toBeGreaterThan(5.5);
      expect(film.duration).toBeLessThan(6.5);

      // A bigger film than a budget allows is refused with its exact price; nothing is sent.
      const jobs = simulator.stats().videoJobs.created;
      const over = await runCli(
        ["run", "film/pipeline.yaml", "--input", "scenes=12", "--max-credits", "100"],
        { cwd: work.dir, env: env() },
      );
      expect(over.code).toBe(2);
      expect(over.stderr).toContain(
        "the run is expected to cost 108 credits (clips: 12 × 9 = 108), over its budget of 100; nothing was sent",
      );
      expect(simulator.stats().videoJobs.created).toBe(jobs);

      // A second init does not overwrite the pipeline: it says how to.
      const again = await runCli(["init", "film"], { cwd: work.dir, env: env() });
      expect(again.code).toBe(2);
      expect(again.stderr).toContain("film/pipeline.yaml already exists");
      expect(again.stderr).toContain("--force");
      expect(await readFile(file, "utf8")).toBe(written);
    } finally {
      await work.remove();
    }
  });
});
