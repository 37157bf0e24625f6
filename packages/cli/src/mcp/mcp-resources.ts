import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { listModels } from "../commands/models-command.js";
import { writeRunReport } from "../commands/report-command.js";
import { summarize } from "./inspect-tools.js";
import { type McpDeps, serviceFlags } from "./mcp-deps.js";
import { readRunStatus, resolveRunDir } from "./run-status.js";

/** The runs a resource template lists: this server's and those under runs/. */
async function runList(deps: McpDeps) {
  const { existsSync, readdirSync } = await import("node:fs");
  const path = await import("node:path");
  const dirs = new Set<string>();
  for (const session of deps.sessions.all()) if (session.runDir) dirs.add(session.runDir);
  const runs = path.join(deps.context.cwd, "runs");
  if (existsSync(runs)) {
    for (const name of readdirSync(runs)) {
      if (existsSync(path.join(runs, name, "journal.jsonl"))) dirs.add(path.join(runs, name));
    }
  }
  return [...dirs].map((dir) => readRunStatus(dir, deps.sessions.find({ runDir: dir })));
}

/**
 * The server's resources: the pipeline JSON Schema, the service's models, and each run's
 * journal summary and report (`reelsmith://runs/{runId}/summary`, `…/report`).
 * @example registerResources(server, deps);
 */
export function registerResources(server: McpServer, deps: McpDeps): void {
  server.registerResource(
    "pipeline-schema",
    "reelsmith://schema/pipeline",
    {
      title: "Pipeline JSON Schema",
      description: "The JSON Schema of a reelsmith pipeline file (YAML), every step kind included.",
      mimeType: "application/schema+json",
    },
    async (uri) => {
      const file = createRequire(import.meta.url).resolve("@reelsmith/runner/schema.json");
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: "application/schema+json",
            text: await readFile(file, "utf8"),
          },
        ],
      };
    },
  );
  server.registerResource(
    "models",
    "reelsmith://models",
    {
      title: "The service's models",
      description:
        "Chat models, and video models with their limits and prices (profile, service or built-in simulator).",
      mimeType: "application/json",
    },
    async (uri) => {
      const listing = await listModels(serviceFlags(deps.flags), deps.context);
      return {
        contents: [
          { uri: uri.href, mimeType: "application/json", text: JSON.stringify(listing, null, 2) },
        ],
      };
    },
  );
  const list = (suffix: string) => async () => ({
    resources: (await runList(deps)).map((status) => ({
      uri: `reelsmith://runs/${status.runId}/${suffix}`,
      name: `${status.name ?? "run"} ${status.runId} ${suffix}`,
      mimeType: suffix === "summary" ? "application/json" : "text/plain",
    })),
  });
  server.registerResource(
    "run-summary",
    new ResourceTemplate("reelsmith://runs/{runId}/summary", { list: list("summary") }),
    {
      title: "A run's journal summary",
      description:
        "Where a run stands, from its journal, ledger and events (as the `status` tool returns it).",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const runDir = resolveRunDir(String(variables.runId), deps.sessions, deps.context.cwd);
      const status = readRunStatus(runDir, deps.sessions.find({ runDir }));
      return {
        contents: [
          { uri: uri.href, mimeType: "application/json", text: JSON.stringify(status, null, 2) },
        ],
      };
    },
  );
  server.registerResource(
    "run-report",
    new ResourceTemplate("reelsmith://runs/{runId}/report", { list: list("report") }),
    {
      title: "A run's report",
      description:
        "The path of the run's report.html (written now from its journal) and a text summary of the run.",
      mimeType: "text/plain",
    },
    async (uri, variables) => {
      const runDir = resolveRunDir(String(variables.runId), deps.sessions, deps.context.cwd);
      const report = await writeRunReport(runDir, deps.context, () => undefined);
      const status = readRunStatus(runDir, deps.sessions.find({ runDir }));
      const text = `${report ? `report: ${report}\n` : "the report could not be written\n"}${summarize(status)}\n`;
      return { contents: [{ uri: uri.href, mimeType: "text/plain", text }] };
    },
  );
}
