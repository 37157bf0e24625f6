import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solidPng } from "../../runner/test/helpers/png.js";
import { type CliProcess, cleanEnv, runCli, startCli, tempDir } from "./helpers/cli-process.js";

const KEY = "sk-params-e2e-0123456789abcdef";

/** A provider whose model declares its own parameters. */
const profile = (dialect: "reference" | "openai") =>
  [
    "service:",
    "  api_key_env: [REELSMITH_API_KEY]",
    `  dialect: ${dialect}`,
    "  idempotency_keys: true",
    "  poll_interval: 100ms",
    "video_models:",
    "  veo-3-fast:",
    "    seconds: { min: 1, max: 8 }",
    "    sizes: [640x360]",
    "    image: true",
    "    params:",
    "      seed: integer",
    "      negative_prompt: string",
    "      aspect_ratio: ['16:9', '9:16']",
    "      last_frame: image",
    "    price: { per_clip: 1, per_second: 1 }",
    "chat_models:",
    "  gpt-4o-mini: { json: true }",
    "",
  ].join("\n");

const pipeline = (params: string) =>
  [
    "name: params",
    "steps:",
    "  - id: clip",
    "    video:",
    "      model: veo-3-fast",
    "      prompt: a lighthouse at dusk",
    "      seconds: 1",
    "      size: 640x360",
    `      params: ${params}`,
    "",
  ].join("\n");

interface Served {
  process: CliProcess;
  url: string;
}

async function serve(dir: string): Promise<Served> {
  const process = startCli(
    ["serve", "--config", "profile.yaml", "--time-scale", "0.01", "--api-key", KEY],
    { cwd: dir },
  );
  await process.waitFor((output) => output.stdout.includes("Press Ctrl-C to stop."));
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(process.output.stdout)?.[1];
  if (!url) throw new Error(`no URL in:\n${process.output.stdout}`);
  return { process, url };
}

interface Received {
  contentType: string;
  fields: Record<string, unknown>;
  files: { field: string; filename: string; bytes: number; sha256: string }[];
}

async function received(served: Served): Promise<Received[]> {
  const response = await fetch(`${served.url}/_simulator/requests`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { videos: Received[] }).videos;
}

/** A project folder with its profile, served by `reelsmith serve --config profile.yaml`. */
async function project(root: string, dialect: "reference" | "openai") {
  const dir = path.join(root, dialect);
  await mkdir(path.join(dir, "frames"), { recursive: true });
  await writeFile(path.join(dir, "profile.yaml"), profile(dialect));
  const served = await serve(dir);
  const env = cleanEnv({ REELSMITH_BASE_URL: served.url, REELSMITH_API_KEY: KEY });
  const cli = (args: string[]) => runCli([...args, "--config", "profile.yaml"], { cwd: dir, env });
  return { dir, served, cli };
}

let work: Awaited<ReturnType<typeof tempDir>>;
const servers: Served[] = [];
beforeAll(async () => {
  work = await tempDir("reelsmith-params-");
});
afterAll(async () => {
  for (const served of servers) {
    served.process.child.kill("SIGINT");
    await served.process.done;
  }
  await work?.remove();
});

describe("video params end to end (built CLI, reelsmith serve --config)", () => {
  it("sends params as JSON fields of their types; the same seed is served from the cache, another is a new job; bad params are refused at file:line:column with nothing sent", async () => {
    const { dir, served, cli } = await project(work.dir, "reference");
    servers.push(served);
    await writeFile(path.join(dir, "p.yaml"), pipeline(`{ seed: 7, negative_prompt: "blurry" }`));
    const first = await cli(["run", "p.yaml"]);
    expect(first.code, first.stderr).toBe(0);
    const [request] = await received(served);
    expect(request?.contentType).toBe("application/json");
    expect(request?.fields).toEqual({
      model: "veo-3-fast",
      prompt: "a lighthouse at dusk",
      seconds: "1",
      size: "640x360",
      seed: 7,
      negative_prompt: "blurry",
    });

    const again = await cli(["run", "p.yaml", "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('"cached":true');
    expect(await received(served)).toHaveLength(1);

    await writeFile(path.join(dir, "p.yaml"), pipeline(`{ seed: 8, negative_prompt: "blurry" }`));
    const other = await cli(["run", "p.yaml"]);
    expect(other.code, other.stderr).toBe(0);
    const requests = await received(served);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.fields.seed).toBe(8);

    await writeFile(
      path.join(dir, "bad.yaml"),
      pipeline(`{ seed: "7", motion: high, aspect_ratio: "4:3" }`),
    );
    for (const command of ["validate", "run"]) {
      const refused = await cli([command, "bad.yaml"]);
      expect(refused.code).toBe(2);
      const output = refused.stdout + refused.stderr;
      expect(output).toContain(
        'bad.yaml:9:23: error: `params.seed` must be an integer for veo-3-fast; got "7"',
      );
      expect(output).toContain(
        "bad.yaml:9:36: error: `params.motion` is not a parameter of veo-3-fast (it takes seed, negative_prompt, aspect_ratio, last_frame)",
      );
      expect(output).toContain(
        'bad.yaml:9:56: error: `params.aspect_ratio: "4:3"` is not allowed by veo-3-fast (allowed: 16:9, 9:16)',
      );
      expect(output).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);
    }
    expect(await received(served)).toHaveLength(2);
  });

  it("in the openai dialect sends params as multipart fields and an image param as a file part of the file's bytes", async () => {
    const { dir, served, cli } = await project(work.dir, "openai");
    servers.push(served);
    const png = solidPng(48, 27, [30, 90, 160]);
    await writeFile(path.join(dir, "frames", "end.png"), png);
    await writeFile(
      path.join(dir, "p.yaml"),
      pipeline(`{ seed: 7, negative_prompt: blurry, last_frame: frames/end.png }`),
    );
    const result = await cli(["run", "p.yaml"]);
    expect(result.code, result.stderr).toBe(0);
    const [request] = await received(served);
    expect(request?.contentType).toBe("multipart/form-data");
    expect(request?.fields).toEqual({
      model: "veo-3-fast",
      prompt: "a lighthouse at dusk",
      seconds: "1",
      size: "640x360",
      seed: "7",
      negative_prompt: "blurry",
    });
    expect(request?.files).toMatchObject([
      {
        field: "last_frame",
        filename: "end.png",
        bytes: png.length,
        sha256: createHash("sha256").update(png).digest("hex"),
      },
    ]);
  });
});
