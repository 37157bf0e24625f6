// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { readFile, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cleanEnv, runCli, tempDir } from "./helpers/cli-process.js";

const KEY = "sk-test-SECRET-0123456789abcdef";

/**
 * An aggregator as many are: OpenAI's dialect, and a model list of bare ids (chat and video
 * alike, no type). Every other request goes to a simulator serving the same models.
 */
const listing = { typed: false };

async function startAggregator(): Promise<{
  url: string;
  close(): Promise<void>;
  videoPosts(): number;
}> {
  const simulator = await startSimulator({
    timeScale: 0.01,
    apiKey: KEY,
    profile: parse(
      [
        "service: { dialect: openai, poll_interval: 100ms }",
        "video_models:",
        "  veo-3-fast: { seconds: [1, 4], sizes: [640x360], price: { per_clip: 9 } }",
        "",
      ].join("\n"),
    ),
  });
  const target = new URL(simulator.url);
  const server: Server = createServer((request, response) => {
    if (request.method === "GET" && request.url === "/v1/models") {
      const entry = (id: string) => ({ id, object: "model", created: 1, owned_by: "acme" });
      response.writeHead(200, { "content-type": "application/json" });
      // One video model listed with its limits and price, all but its params.
      const typed = {
        ...entry("acme-lite"),
        type: "video",
        video: {
          seconds: [1, 4],
          sizes: ["640x360"],
          image: true,
          params: null,
          price: { per_clip: 3 },
        },
      };
      const data = ["reel-chat-1", "veo-3-fast", "mystery-1"].map(entry);
      response.end(
        JSON.stringify({ object: "list", data: listing.typed ? [...data, typed] : data }),
      );
      return;
    }
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: request.url,
        method: request.method,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    videoPosts: () => simulator.videoRequests().length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await simulator.close();
    },
  };
}

let work: Awaited<ReturnType<typeof tempDir>>;
let aggregator: Awaited<ReturnType<typeof startAggregator>>;
beforeAll(async () => {
  work = await tempDir("reelsmith-untyped-");
  aggregator = await startAggregator();
});
afterAll(async () => {
  await aggregator?.close();
  await work?.remove();
});

const env = () => cleanEnv({ REELSMITH_BASE_URL: aggregator.url, REELSMITH_API_KEY: KEY });

describe("a service that lists its models without a type", () => {
  it("models shows the untyped ids as kind unknown, and a list's shape is no evidence of a dialect", async () => {
    const result = await runCli(["models"], { cwd: work.dir, env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /listed without a type \(chat or video\)[^\n]*\n[^\n]*reel-chat-1/,
    );
    expect(result.stdout).toContain("veo-3-fast");
    expect(result.stdout).toContain("mystery-1");
    expect(result.stdout).toContain(
      "dialect: reference (the service interface's default: its model list has no types, and a list's shape says nothing of its video API, so the dialect could not be told; pick openai only if",
    );
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it("write-config takes its options in any order and leaves untyped ids to classify, in the interface's dialect with when to pick openai", async () => {
    const result = await runCli(
      ["models", "--write-config", "--video-model", "veo-3-fast", "acme.yaml"],
      { cwd: work.dir, env: env() },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("wrote acme.yaml: 1 video model (veo-3-fast), 0 chat models");
    expect(result.stdout).toContain(
      "fill in what is left null: veo-3-fast (seconds, sizes, image, params, price)",
    );
    expect(result.stdout).toContain("2 models are listed without a type (reel-chat-1, mystery-1)");
    const text = await readFile(path.join(work.dir, "acme.yaml"), "utf8");
    expect(parse(text)).toMatchObject({
      service: { base_url: aggregator.url, dialect: "reference" },
      video_models: { "veo-3-fast": { seconds: null } },
      chat_models: {},
    });
    expect(text).toContain(
      "# listed by the service without a type: named a video model with --video-model",
    );
    expect(text.replace(/\n\s*#/g, "")).toContain("could not be told; pick openai only if");
    expect(text).toMatch(
      /# Listed by the service without a type[\s\S]*# {3}reel-chat-1:\n# {3}mystery-1:/,
    );
    expect(text).not.toContain(KEY);

    const twice = await runCli(["models", "--write-config", "a.yaml", "b.yaml"], {
      cwd: work.dir,
      env: env(),
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("two files to write: a.yaml (after --write-config) and b.yaml");
    const stray = await runCli(["models", "c.yaml"], { cwd: work.dir, env: env() });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain("models takes a file name only with --write-config");
  });

  it("models and write-config agree on a listed video model's price, and name only the fields left null", async () => {
    listing.typed = true;
    try {
      const shown = await runCli(["models"], { cwd: work.dir, env: env() });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/acme-lite +1 or 4 seconds +640x360 +3 a clip +service/);
      expect(shown.stdout).toContain("dialect: reference (its model list types its models");
      const written = await runCli(["models", "typed.yaml", "--write-config"], {
        cwd: work.dir,
        env: env(),
      });
      expect(written.code, written.stderr).toBe(0);
      expect(written.stdout).toContain("fill in what is left null: acme-lite (params) (`reelsmith");
      const text = await readFile(path.join(work.dir, "typed.yaml"), "utf8");
      expect(parse(text)).toMatchObject({
        service: { dialect: "reference" },
        video_models: { "acme-lite": { seconds: [1, 4], price: { per_clip: 3 }, params: null } },
      });
    } finally {
      listing.typed = false;
    }
  });

  it("a run may use an untyped id as its video model, warned once that its limits and price are unknown", async () => {
    await writeFile(
      path.join(work.dir, "service.yaml"),
      "service: { dialect: openai, poll_interval: 100ms }\n",
    );
    await writeFile(
      path.join(work.dir, "clip.yaml"),
      [
        "name: clip",
        "steps:",
        "  - id: clips",
        "    for_each: [boat, kite]",
        '    video: { model: veo-3-fast, prompt: "a paper ${{ item }}", seconds: 1, size: 640x360 }',
        "",
      ].join("\n"),
    );
    const result = await runCli(["run", "clip.yaml", "--config", "service.yaml"], {
      cwd: work.dir,
      env: env(),
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const output = result.stdout + result.stderr;
    expect(
      output.match(/video model `veo-3-fast` is listed by the service without a type/g),
    ).toHaveLength(1);
    expect(output).not.toContain("is not offered by the service");
    expect(aggregator.videoPosts()).toBe(2);
    expect(output).not.toContain(KEY);
  });
});
