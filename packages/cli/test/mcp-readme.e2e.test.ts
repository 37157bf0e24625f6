import { readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, EXAMPLES, tempDir } from "./helpers/cli-process.js";

const ROOT = path.resolve(EXAMPLES, "..");
const README = readFileSync(path.join(ROOT, "README.md"), "utf8");
/** What the README asks the reader to replace with the clone's absolute path. */
const PLACEHOLDER = "/path/to/reelsmith";
const API_KEY = "sk-e2e-mcp-readme-1618";

/** The README's fenced blocks of one language that contain `marker`. */
function blocks(language: string, marker: string): string[] {
  const fence = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g");
  return [...README.matchAll(fence)]
    .map((match) => match[1] ?? "")
    .filter((text) => text.includes(marker));
}

/** A server configuration as a snippet gives it. */
interface Snippet {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

function claudeSnippet(): Snippet {
  const [text] = blocks("sh", "claude mcp add reelsmith");
  const line = String(text).replace(/\\\n\s*/g, " ");
  const [before, after] = line.split(" -- ");
  const env = Object.fromEntries(
    [...String(before).matchAll(/-e (\w+)=(\S+)/g)].map((match) => [match[1], match[2]]),
  );
  const [command, ...args] = String(after).trim().split(/\s+/);
  return { name: "Claude Code", command: String(command), args, env };
}

function cursorSnippet(): Snippet {
  const [text] = blocks("json", '"mcpServers"');
  const server = JSON.parse(String(text)).mcpServers.reelsmith;
  return { name: "Cursor", command: server.command, args: server.args, env: server.env };
}

function codexSnippet(): Snippet {
  const [text] = blocks("toml", "[mcp_servers.reelsmith]");
  const value = (key: string) => new RegExp(`^${key} = (.*)$`, "m").exec(String(text))?.[1];
  const env = Object.fromEntries(
    [...String(value("env")).matchAll(/(\w+) = "([^"]*)"/g)].map((match) => [match[1], match[2]]),
  );
  return {
    name: "Codex",
    command: JSON.parse(String(value("command"))),
    args: JSON.parse(String(value("args"))),
    env,
  };
}

let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY });
});
afterAll(() => simulator?.close());

describe("the README's MCP configurations, run as a clone runs them", () => {
  const snippets = [claudeSnippet(), cursorSnippet(), codexSnippet()];

  it("every snippet names the same command: node and the clone's launcher, not the unpublished npm package", () => {
    for (const snippet of snippets) {
      expect(snippet.command, snippet.name).toBe("node");
      expect(snippet.args, snippet.name).toEqual([
        `${PLACEHOLDER}/packages/cli/bin/reelsmith.js`,
        "mcp",
        "--max-credits",
        "200",
        "--max-total-credits",
        "1000",
      ]);
      expect(Object.keys(snippet.env).sort(), snippet.name).toEqual([
        "REELSMITH_API_KEY",
        "REELSMITH_BASE_URL",
      ]);
    }
    // The npm form is shown as what it will be, never as a configuration to paste today.
    expect(README).toContain("Once `@reelsmith/cli` is published");
    expect(README).not.toMatch(/"command": "npx",\n/);
  });

  for (const snippet of snippets) {
    it(`${snippet.name}'s command starts a server whose tools the MCP SDK lists`, async () => {
      const work = await tempDir("reelsmith-mcp-readme-");
      const client = new Client({ name: "reelsmith-readme", version: "0.0.0" });
      try {
        await client.connect(
          new StdioClientTransport({
            command: snippet.command === "node" ? process.execPath : snippet.command,
            args: snippet.args.map((arg) => arg.replace(PLACEHOLDER, ROOT)),
            cwd: work.dir,
            // The snippet's variables, pointed at a service on loopback.
            env: cleanEnv({
              REELSMITH_BASE_URL: simulator.url,
              REELSMITH_API_KEY: API_KEY,
            }),
            stderr: "ignore",
          }),
        );
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(
          expect.arrayContaining(["validate", "plan", "run", "status", "models"]),
        );
        expect(client.getInstructions()).toContain("at most 200 credits per run");
      } finally {
        await client.close();
        await work.remove();
      }
    });
  }
});
