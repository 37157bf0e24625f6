import { readFile, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { cleanEnv, EXAMPLES, runCli, tempDir } from "./helpers/cli-process.js";

const KEY = "sk-test-SECRET-interface-0123456789";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");
const MODELS = ["reel-chat-1", "reel-chat-mini", "reel-video-1", "reel-video-2-lite"];
/** The routes that make something (and may be paid for). */
const GENERATION = /^POST \/v1\/(chat\/completions|videos|images|audio)/;

/**
 * A service that follows the service interface to the letter and says no more than it: its
 * model list has OpenAI's shape (`id`, `object`, `created`, `owned_by`: no types), and
 * `POST /v1/videos` takes JSON only (`400 body must be JSON` to anything else). What it makes
 * is made by a simulator behind it.
 */
async function startInterfaceService() {
  const simulator = await startSimulator({ timeScale: 0.01, apiKey: KEY });
  const target = new URL(simulator.url);
  const received: string[] = [];
  const server: Server = createServer((request, response) => {
    const route = `${request.method} ${request.url?.split("?")[0]}`;
    received.push(route);
    if (route === "GET /v1/models") {
      const data = MODELS.map((id) => ({ id, object: "model", created: 1, owned_by: "acme" }));
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data }));
      return;
    }
    const type = String(request.headers["content-type"] ?? "");
    if (route === "POST /v1/videos" && !type.startsWith("application/json")) {
      request.resume();
      response.writeHead(400, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          error: { message: "body must be JSON", type: "invalid_request_error", code: null },
        }),
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
    simulator,
    /** Requests received so far to the routes that make something. */
    generation: () => received.filter((route) => GENERATION.test(route)),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await simulator.close();
    },
  };
}

let service: Awaited<ReturnType<typeof startInterfaceService>>;
const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
beforeAll(async () => {
  service = await startInterfaceService();
});
afterAll(async () => {
  await service?.close();
  for (const dir of dirs) await dir.remove();
});

async function workDir() {
  const dir = await tempDir("reelsmith-interface-");
  dirs.push(dir);
  return dir.dir;
}

const env = () => cleanEnv({ REELSMITH_BASE_URL: service.url, REELSMITH_API_KEY: KEY });

/** The storyboard example with its video model's input default misspelled. */
async function typoStoryboard(dir: string): Promise<string> {
  const text = (await readFile(STORYBOARD, "utf8")).replace(
    "default: reel-video-2-lite",
    "default: reel-video-2-lyte",
  );
  expect(text).toContain("reel-video-2-lyte");
  const file = path.join(dir, "typo.yaml");
  await writeFile(file, text);
  return file;
}

describe("a service that follows the interface: OpenAI-shaped model list, JSON-only POST /v1/videos", () => {
  it("models --write-config writes the reference dialect with what it could not tell, and the main job then runs with no edit", async () => {
    const dir = await workDir();
    const written = await runCli(["models", "--write-config"], { cwd: dir, env: env() });
    expect(written.stderr).toBe("");
    expect(written.code).toBe(0);
    expect(written.stdout).toContain("dialect: reference (the service interface's default");
    const text = await readFile(path.join(dir, "reelsmith.config.yaml"), "utf8");
    expect(parse(text).service.dialect).toBe("reference");
    // The comment says what could not be told, and when openai is the one to pick.
    expect(text.replace(/\n\s*#/g, "")).toContain("could not be told");
    expect(text.replace(/\n\s*#/g, "")).toContain(
      "pick openai only if the service's POST /v1/videos takes OpenAI's multipart/form-data",
    );

    const run = await runCli(["run", STORYBOARD], { cwd: dir, env: env() });
    expect(run.stderr).not.toContain("error:");
    expect(run.code).toBe(0);
    await vi.waitFor(() =>
      expect(service.simulator.stats().videoJobs.completed).toBeGreaterThanOrEqual(4),
    );
    expect(service.generation().filter((route) => route === "POST /v1/videos")).toHaveLength(4);
  });

  it("a profile in the other dialect fails with the setting to change named", async () => {
    const dir = await workDir();
    await writeFile(
      path.join(dir, "reelsmith.config.yaml"),
      "service: { dialect: openai, poll_interval: 100ms }\n",
    );
    const run = await runCli(["run", STORYBOARD, "--input", "scenes=1"], {
      cwd: dir,
      env: env(),
    });
    expect(run.code, run.stderr).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toContain("body must be JSON");
    expect(`${run.stdout}${run.stderr}`).toContain(
      "set `dialect: reference` under `service:` in the provider profile",
    );
  });

  it("plan and run refuse a misspelled input default and an unknown chat model (exit 2, did you mean), sending nothing", async () => {
    const dir = await workDir();
    const typo = await typoStoryboard(dir);
    const before = service.generation().length;
    const made = () => {
      const stats = service.simulator.stats();
      return { chats: stats.chatCompletions, videos: stats.videoJobs.created };
    };
    const madeBefore = made();
    for (const command of ["plan", "run"]) {
      const refused = await runCli([command, typo], { cwd: dir, env: env() });
      expect(refused.code, `${command}: ${refused.stderr}`).toBe(2);
      // plan reads the service's list as the pipeline is checked, run before its first request.
      expect(refused.stderr).toMatch(
        /typo\.yaml:30:14: (error: unknown video model `reel-video-2-lyte` \(the default of input `video_model`\);|video model `reel-video-2-lyte` \(the default of input `video_model`\) is not offered by the service;) did you mean `reel-video-2-lite`\?/,
      );
      const chat = await runCli([command, STORYBOARD, "--input", "chat_model=gpt-4o-mini"], {
        cwd: dir,
        env: env(),
      });
      expect(chat.code, `${command}: ${chat.stderr}`).toBe(2);
      expect(chat.stderr).toMatch(
        /(unknown chat model `gpt-4o-mini` \(the value given for input `chat_model`\)|chat model `gpt-4o-mini` \(the value given for input `chat_model`\) is not offered by the service)/,
      );
      expect(chat.stderr).toContain("reel-chat-1, reel-chat-mini");
    }
    // validate reads no service's list: it cannot know, and says why.
    const validated = await runCli(["validate", typo], { cwd: dir, env: env() });
    expect(validated.code).toBe(0);
    expect(validated.stdout).toContain(
      "warning: video model `reel-video-2-lyte` (the default of input `video_model`) is not checked: there is no provider profile, and validate does not read the service's model list (`reelsmith plan` checks it against",
    );
    // Each command has exited: every request it sent has been answered and counted.
    expect(service.generation().length).toBe(before);
    expect(made()).toEqual(madeBefore);
  });
});

describe("the built-in simulator: its catalogs are known offline", () => {
  it("validate, plan and run refuse a misspelled input default and a misspelled chat model alike (exit 2, did you mean)", async () => {
    const dir = await workDir();
    const typo = await typoStoryboard(dir);
    const chat = path.join(dir, "chat.yaml");
    await writeFile(
      chat,
      (await readFile(STORYBOARD, "utf8")).replace("default: reel-chat-1", "default: reel-chat-l"),
    );
    for (const command of ["validate", "plan", "run"]) {
      const refused = await runCli([command, typo], { cwd: dir, env: cleanEnv() });
      expect(refused.code, `${command}: ${refused.stderr}`).toBe(2);
      expect(`${refused.stdout}${refused.stderr}`).toContain(
        "typo.yaml:30:14: error: unknown video model `reel-video-2-lyte` (the default of input `video_model`); did you mean `reel-video-2-lite`?",
      );
      const chatRefused = await runCli([command, chat], { cwd: dir, env: cleanEnv() });
      expect(chatRefused.code, `${command}: ${chatRefused.stderr}`).toBe(2);
      expect(`${chatRefused.stdout}${chatRefused.stderr}`).toContain(
        "error: unknown chat model `reel-chat-l` (the default of input `chat_model`); did you mean `reel-chat-1`?",
      );
    }
    const given = await runCli(["run", STORYBOARD, "--input", "chat_model=gpt-4o-mini"], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(given.code).toBe(2);
    expect(given.stderr).toContain("unknown chat model `gpt-4o-mini`");
    expect(given.stderr).toContain("known models: reel-chat-1, reel-chat-mini");
  });
});
