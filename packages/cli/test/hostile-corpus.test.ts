import { cp, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createTestContext } from "../src/__fixtures__/test-context.js";
import { executeCli } from "../src/program.js";
import { runCli, tempDir } from "./helpers/cli-process.js";

/** The corpus lives beside the runner's validate fixtures; cases.yaml says what each must give. */
const CORPUS = path.resolve(import.meta.dirname, "../../runner/src/pipeline/__fixtures__/hostile");

interface Case {
  file: string;
  exit: number;
  expect: string[];
  run?: { exit: number; requests: "none" | "models"; expect: string };
}

const cases = parse(
  await import("node:fs").then((fs) => fs.readFileSync(path.join(CORPUS, "cases.yaml"), "utf8")),
) as Case[];

let work: { dir: string; remove: () => Promise<void> };
let simulator: Simulator;
beforeAll(async () => {
  // A copy, so nothing a command might write lands among the fixtures.
  work = await tempDir("reelsmith-hostile-");
  await cp(CORPUS, work.dir, { recursive: true });
  simulator = await startSimulator({ timeScale: 0.01 });
});
afterAll(async () => {
  await simulator?.close();
  await work?.remove();
});

async function cli(args: string[]): Promise<{ code: number; output: string }> {
  const { context, output } = createTestContext({ cwd: work.dir, env: {} });
  const code = await executeCli(args, context);
  return { code, output: `${output.stdout}${output.stderr}` };
}

describe("the hostile corpus", () => {
  it("lists every pipeline file of the folder, and has at least 60", async () => {
    const { readdirSync } = await import("node:fs");
    const files = readdirSync(CORPUS).filter(
      (name) => name.endsWith(".yaml") && name !== "cases.yaml",
    );
    expect(cases.map((entry) => entry.file).sort()).toEqual(files.sort());
    expect(files.length).toBeGreaterThanOrEqual(60);
    expect(cases.filter((entry) => entry.exit === 2).length).toBeGreaterThanOrEqual(60);
  });

  for (const entry of cases) {
    it(`validate ${entry.file} exits ${entry.exit} with its problems`, async () => {
      const { code, output } = await cli(["validate", entry.file]);
      for (const fragment of entry.expect) expect(output).toContain(fragment);
      expect(output).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // never a stack trace
      expect(code).toBe(entry.exit);
    });
  }

  it("run refuses the sample before any request, except the free model list", async () => {
    const connection = ["--base-url", simulator.url, "--api-key", simulator.apiKey];
    for (const entry of cases.filter((each) => each.run)) {
      const run = entry.run!;
      const before = structuredClone(simulator.stats().requests);
      const { code, output } = await cli(["run", entry.file, ...connection]);
      expect(output, entry.file).toContain(run.expect);
      expect(code, entry.file).toBe(run.exit);
      const after = simulator.stats().requests;
      const models =
        (after["GET /v1/models"]?.["200"] ?? 0) - (before["GET /v1/models"]?.["200"] ?? 0);
      expect(models, entry.file).toBe(run.requests === "models" ? 1 : 0);
      const { "GET /v1/models": _ignored, ...paid } = after;
      const { "GET /v1/models": _before, ...paidBefore } = before;
      expect(paid, entry.file).toEqual(paidBefore);
    }
    expect(simulator.stats().videoJobs.created).toBe(0);
    expect(simulator.stats().chatCompletions).toBe(0);
  });

  it("refuses a file over the size limit", async () => {
    const file = path.join(work.dir, "generated-huge.yaml");
    await writeFile(file, `name: huge\ndescription: "${"x".repeat(1024 * 1024)}"\nsteps: []\n`);
    const { code, output } = await cli(["validate", file]);
    expect(output).toContain("generated-huge.yaml:1:1: error: pipeline file is");
    expect(output).toContain("the limit is 1048576 bytes");
    expect(code).toBe(2);
  });

  it("gives the same answers through the built CLI", async () => {
    const sample = [
      "sub-cycle.yaml",
      "encoding-utf16le.yaml",
      "proto-step-id.yaml",
      "type-for-each-chat-text.yaml",
      "sub-ok.yaml",
    ];
    for (const name of sample) {
      const entry = cases.find((each) => each.file === name)!;
      const result = await runCli(["validate", name], { cwd: work.dir });
      const output = `${result.stdout}${result.stderr}`;
      for (const fragment of entry.expect) expect(output).toContain(fragment);
      expect(result.code, name).toBe(entry.exit);
    }
  });
});
