import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, EXAMPLES, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-mcp-batch-1414213562";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");
const STORIES = [
  "A paper boat sails down a rainy gutter.",
  "A red kite escapes over the dunes.",
  "A night train crosses a frozen bridge.",
  "A lighthouse keeper feeds a gull.",
  "A fox naps under a birch at noon.",
];

type Structured = Record<string, unknown> & { status?: string; code?: string };
interface ToolResult {
  isError?: boolean;
  structuredContent?: Structured;
  content?: unknown;
}

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
let client: Client;

async function call(name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

const paid = () => ({
  chats: simulator.stats().chatCompletions,
  videos: simulator.stats().videoJobs.created,
});

async function csv(name: string, stories: readonly string[], extra = ""): Promise<string> {
  await writeFile(
    path.join(work.dir, name),
    `story,scenes\n${stories.map((story) => `"${story}",1`).join("\n")}\n${extra}`,
  );
  return name;
}

beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.02, seed: 7 });
  work = await tempDir("reelsmith-mcp-batch-");
  const transport = new StdioClientTransport({
    command: process.execPath,
    // The ceiling bounds a batch as one paid call.
    args: [CLI, "mcp", "--max-credits", "30", "--max-total-credits", "100"],
    cwd: work.dir,
    env: cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY }),
    stderr: "ignore",
  });
  client = new Client({ name: "reelsmith-e2e-batch", version: "0.0.0" });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await simulator?.close();
  await work?.remove();
});

describe("the MCP batch tool (built CLI, SDK client over stdio)", () => {
  it("refuses a bad row by its line and field, and a batch over the ceiling, sending nothing", async () => {
    const before = paid();
    const bad = await call("batch", {
      pipeline: STORYBOARD,
      inputsFile: await csv("bad.csv", STORIES.slice(0, 1), '"A bad row.",two\n'),
    });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ code: "batch_rows_invalid" });
    expect(String(bad.structuredContent?.message)).toMatch(
      /bad\.csv:3: scenes: expected an integer, got string "two"/,
    );

    const big = await call("batch", {
      pipeline: STORYBOARD,
      inputsFile: await csv("five.csv", STORIES),
    });
    expect(big.isError).toBe(true);
    expect(big.structuredContent).toMatchObject({
      code: "over_ceiling",
      estimate: 45,
      ceiling: 30,
      budget: 30,
    });
    expect(String(big.structuredContent?.message)).toContain(
      "the batch of 5 rows is expected to cost 45 credits, over the 30 it may spend",
    );
    const asked = await call("batch", {
      pipeline: STORYBOARD,
      inputsFile: "five.csv",
      maxCredits: 20,
    });
    expect(asked.structuredContent).toMatchObject({ code: "over_budget", budget: 20 });
    const missing = await call("batch", { pipeline: STORYBOARD, inputsFile: "none.csv" });
    expect(missing.structuredContent).toMatchObject({ code: "inputs_file_missing" });
    expect(paid()).toEqual(before);
    expect(existsSync(path.join(work.dir, "runs"))).toBe(false);
  });

  it("starts a batch within the ceiling and shows its rows and finals in status", async () => {
    const before = paid();
    const started = await call("batch", {
      pipeline: STORYBOARD,
      inputsFile: await csv("three.csv", STORIES.slice(0, 3)),
      parallel: 2,
    });
    expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
    const reply = started.structuredContent as Structured;
    expect(reply).toMatchObject({ status: "running", budget: 30, estimate: 27 });
    expect(reply.rows).toHaveLength(3);
    const batchDir = String(reply.batchDir);
    expect(batchDir).toMatch(/runs\/\d{8}-\d{6}-storyboard-batch$/);
    expect(reply.runDir).toBe(batchDir);

    let status: Structured;
    for (;;) {
      const result = await call("status", { run: batchDir });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      status = result.structuredContent as Structured;
      if (status.status !== "running") break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toMatchObject({
      batch: true,
      batchId: reply.batchId,
      status: "succeeded",
      counts: { succeeded: 3 },
      budget: 30,
      report: path.join(batchDir, "batch.html"),
    });
    const finals = status.finals as string[];
    expect(finals).toHaveLength(3);
    for (const final of finals) {
      expect((await readFile(final)).subarray(4, 8).toString("latin1")).toBe("ftyp");
    }
    // One clip a row, what the rows' ledgers say was spent, and the server counts it.
    expect(paid().videos - before.videos).toBe(3);
    const spent = status.spent as number;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(30);
    expect((status.server as { spent: number }).spent).toBe(spent);
    const rows = status.rows as { status: string; credits: number }[];
    expect(rows.reduce((sum, row) => sum + row.credits, 0)).toBe(spent);
    // Its id names it too; the tools of one run leave a batch alone.
    const byId = await call("status", { run: String(reply.batchId) });
    expect(byId.structuredContent).toMatchObject({ batchDir, status: "succeeded" });
    const resumed = await call("resume", { run: batchDir });
    expect(resumed.isError).toBe(true);
    expect(resumed.structuredContent).toMatchObject({ code: "not_a_run" });
    expect(paid().videos - before.videos).toBe(3);
  });
});
