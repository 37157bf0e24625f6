// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, EXAMPLES, runCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-mcp-key-2718281828";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");
const GATED = path.join(EXAMPLES, "storyboard", "approve.yaml");

type Structured = Record<string, unknown> & {
  status?: string;
  code?: string;
  alternatives?: { tool: string; arguments: Record<string, unknown>; estimate?: number }[];
};
interface ToolResult {
  isError?: boolean;
  structuredContent?: Structured;
  content?: unknown;
}

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
const clients: Client[] = [];

const env = () => cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY });

/** A `reelsmith mcp` process of the built CLI, driven by the SDK's own client over stdio. */
async function connect(flags: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", ...flags],
    cwd: work.dir,
    env: env(),
    stderr: "ignore",
  });
  const client = new Client({ name: "reelsmith-e2e", version: "0.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** Poll `status` until the run is no longer running (no time limit but the test's). */
async function settle(client: Client, run: string): Promise<Structured> {
  for (;;) {
    const result = await call(client, "status", { run });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const status = result.structuredContent as Structured;
    if (status.status !== "running") return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const requests = () => ({
  chat: simulator.stats().chatCompletions,
  videos: simulator.stats().videoJobs.created,
});

beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.02, seed: 5 });
  work = await tempDir("reelsmith-mcp-");
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await simulator?.close();
  await work?.remove();
});

describe("reelsmith mcp (built CLI, SDK client over stdio)", () => {
  let limited: Client;
  let roomy: Client;
  beforeAll(async () => {
    limited = await connect(["--max-credits", "20"]);
    roomy = await connect(["--max-credits", "200", "--max-total-credits", "400"]);
  });

  it("says how to work in its instructions and gives every tool an output schema", async () => {
    expect(limited.getInstructions()).toContain("`validate` it");
    expect(limited.getInstructions()).toContain("at most 20 credits per run");
    const { tools } = await limited.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      [
        "approve",
        "batch",
        "cancel",
        "models",
        "pick",
        "plan",
        "reject",
        "report",
        "resume",
        "retake",
        "run",
        "status",
        "validate",
      ].sort(),
    );
    for (const tool of tools) expect(tool.outputSchema?.type).toBe("object");
    const schema = await limited.readResource({ uri: "reelsmith://schema/pipeline" });
    const text = (schema.contents[0] as { text?: string } | undefined)?.text;
    expect(JSON.parse(String(text)).properties.steps).toBeDefined();
  });

  it("validate of a broken pipeline returns each problem at its exact line and column", async () => {
    const lines = [
      "name: broken",
      "steps:",
      "  - id: title",
      '    chat: { model: reel-chat-1, prompt: "About ${{ steps.nowhere.outputs.text }}" }',
      "",
    ];
    await writeFile(path.join(work.dir, "broken.yaml"), lines.join("\n"));
    const result = await call(limited, "validate", { files: ["broken.yaml"] });
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as {
      ok: boolean;
      errors: number;
      files: { file: string; diagnostics: Record<string, unknown>[] }[];
    };
    expect(content.ok).toBe(false);
    expect(content.errors).toBe(1);
    // The service's list is not read by validate: the chat model is a warning saying so.
    expect(content.files[0]?.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: "warning",
        code: "model_not_checked",
        message: expect.stringContaining("chat model `reel-chat-1` is not checked"),
      }),
    );
    expect(content.files[0]?.diagnostics.filter((d) => d.severity === "error")).toEqual([
      expect.objectContaining({
        severity: "error",
        file: path.join(work.dir, "broken.yaml"),
        line: 4,
        // The caret sits on the name that is unknown.
        column: (lines[3] ?? "").indexOf("nowhere") + 1,
        message: expect.stringContaining("nowhere"),
      }),
    ]);
    // The same pipeline given to `run` is refused with the same positions, nothing sent.
    const before = requests();
    const run = await call(limited, "run", { pipeline: "broken.yaml" });
    expect(run.isError).toBe(true);
    expect(run.structuredContent).toMatchObject({
      code: "invalid_pipeline",
      details: { diagnostics: [expect.objectContaining({ line: 4 })] },
    });
    expect(requests()).toEqual(before);
  });

  it("refuses a run over the ceiling with its numbers and alternatives, sending nothing; the alternative fits", async () => {
    await writeFile(
      path.join(work.dir, "over.yaml"),
      [
        "name: over",
        "inputs:",
        "  scenes:",
        "    type: array",
        "    default: [dawn, noon, dusk, night]",
        "defaults:",
        "  video: { model: reel-video-2-lite, seconds: 2, size: 854x480 }",
        "steps:",
        "  - id: title",
        "    chat: { model: reel-chat-1, prompt: A title for a film of a lake }",
        "  - id: clips",
        "    for_each: ${{ inputs.scenes }}",
        '    video: { prompt: "A lake at ${{ item }}" }',
        "",
      ].join("\n"),
    );
    const before = requests();
    // Asking for more than the ceiling gets the ceiling, never more.
    const refused = await call(limited, "run", { pipeline: "over.yaml", maxCredits: 1000 });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      code: "over_ceiling",
      estimate: 36,
      ceiling: 20,
      budget: 20,
      spent: 0,
    });
    // Four scenes from a list input: the whole cost is known, so it is not called a least.
    expect(String(refused.structuredContent?.message)).toContain(
      "the run is expected to cost 36 credits, over the 20 it may spend (the server's ceiling (--max-credits)); nothing was sent",
    );
    expect(refused.structuredContent?.alternatives).toContainEqual(
      expect.objectContaining({
        tool: "run",
        arguments: {
          maxCredits: 1000,
          pipeline: "over.yaml",
          inputs: { scenes: ["dawn", "noon"] },
        },
        estimate: 18,
      }),
    );
    expect(requests()).toEqual(before);

    const alternative = refused.structuredContent?.alternatives?.find(
      (entry) => entry.tool === "run",
    );
    const started = await call(limited, "run", alternative?.arguments ?? {});
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent).toMatchObject({ status: "running", budget: 20 });
    const ended = await settle(limited, String(started.structuredContent?.runId));
    expect(ended).toMatchObject({ status: "succeeded", spent: 18, budget: 20 });
    expect(requests().videos - before.videos).toBe(2);
  });

  it("refuses an approve without --allow-approve and leaves the gate waiting", async () => {
    const started = await call(limited, "run", { pipeline: GATED, inputs: { scenes: 2 } });
    expect(started.isError).toBeFalsy();
    const runDir = String(started.structuredContent?.runDir);
    const waiting = await settle(limited, runDir);
    expect(waiting).toMatchObject({ status: "waiting", waitingAt: [{ step: "review" }] });
    const refused = await call(limited, "approve", { run: runDir, continue: true });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: "approval_not_allowed" });
    expect(refused.structuredContent?.alternatives?.map((entry) => entry.tool)).toContain("status");
    const after = await call(limited, "status", { run: runDir });
    expect(after.structuredContent).toMatchObject({
      status: "waiting",
      gates: [{ step: "review", state: "waiting" }],
    });
  });

  it("runs the storyboard to its final video with status polled, then a retake pays exactly one job", async () => {
    const started = await call(roomy, "run", { pipeline: STORYBOARD, inputs: { scenes: 3 } });
    expect(started.isError).toBeFalsy();
    const runId = String(started.structuredContent?.runId);
    const runDir = String(started.structuredContent?.runDir);
    expect(existsSync(path.join(runDir, "journal.jsonl"))).toBe(true);
    const ended = await settle(roomy, runId);
    expect(ended.status).toBe("succeeded");
    // A finished single step counts its one unit as succeeded, as a fan-out counts its items.
    const stepOf = (id: string) =>
      (ended.steps as { id: string }[] | undefined)?.find((step) => step.id === id);
    expect(stepOf("storyboard")).toEqual({
      id: "storyboard",
      status: "succeeded",
      succeeded: 1,
      failed: 0,
      running: 0,
    });
    expect(stepOf("clips")).toEqual({
      id: "clips",
      status: "succeeded",
      succeeded: 3,
      failed: 0,
      running: 0,
    });
    expect(ended.video).toBe(path.join(runDir, "final.mp4"));
    expect(existsSync(String(ended.video))).toBe(true);

    const before = requests();
    const retake = await call(roomy, "retake", {
      run: runId,
      step: "clips",
      item: 1,
      prompt: "A paper boat in a summer storm",
    });
    expect(retake.isError).toBeFalsy();
    expect(retake.structuredContent).toMatchObject({ runId, estimate: 9 });
    const retaken = await settle(roomy, runId);
    expect(retaken.status).toBe("succeeded");
    expect(requests().videos - before.videos).toBe(1);
    expect(requests().chat).toBe(before.chat);
    expect(existsSync(path.join(runDir, "clips", "scene-1.take-1.mp4"))).toBe(true);

    const report = await call(roomy, "report", { run: runId });
    expect(report.structuredContent?.report).toBe(path.join(runDir, "report.html"));
    expect(String(report.structuredContent?.summary)).toContain("final video:");
  });

  it("watches a run started from the terminal and decides its gate with --allow-approve; the journal and report show the decision", async () => {
    // A story of its own: none of its clips is in the cache from the runs before.
    const story = "story=A red kite rises over a windy beach. It falls into the sea at dusk.";
    const terminal = await runCli(
      ["run", GATED, "--input", "scenes=2", "--input", story, "--json"],
      {
        cwd: work.dir,
        env: env(),
      },
    );
    expect(terminal.code).toBe(4);
    const start = terminal.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { type: string; runDir?: string })
      .find((event) => event.type === "run.start");
    const runDir = String(start?.runDir);
    const deciding = await connect(["--max-credits", "100", "--allow-approve"]);
    const waiting = (await call(deciding, "status", { run: runDir })).structuredContent as {
      approvingCosts?: { credits: number; complete: boolean };
    };
    expect(waiting).toMatchObject({ status: "waiting", waitingAt: [{ step: "review" }] });
    // What approving costs is known at the gate: its two clips' requests are.
    expect(waiting.approvingCosts).toMatchObject({ complete: true });
    const costs = waiting.approvingCosts?.credits ?? -1;
    expect(costs).toBeGreaterThan(0);
    const before = requests();
    const chargedBefore = simulator.stats().creditsCharged;
    const approved = await call(deciding, "approve", {
      run: runDir,
      note: "scenes read",
      continue: true,
    });
    expect(approved.isError).toBeFalsy();
    expect(approved.structuredContent).toMatchObject({
      step: "review",
      approved: true,
      by: "mcp",
      approvingCosts: { credits: costs, complete: true },
    });
    const ended = await settle(deciding, runDir);
    // It spent what the gate said, and status shows the whole run's estimate and spent alike.
    expect(simulator.stats().creditsCharged - chargedBefore).toBe(costs);
    expect(ended.estimate).toEqual({ credits: ended.spent, complete: true });
    expect(ended).toMatchObject({
      status: "succeeded",
      gates: [{ step: "review", state: "approved", by: "mcp", note: "scenes read" }],
    });
    expect(ended.jobsSubmitted).toBe(2);
    expect(requests().videos - before.videos).toBe(2);
    const report = await runCli(["report", runDir], { cwd: work.dir, env: env() });
    expect(report.code).toBe(0);
    expect(readFileSync(path.join(runDir, "report.html"), "utf8")).toContain("scenes read");
  });
});
