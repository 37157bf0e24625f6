import { mkdir, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { chatModels, videoModels } from "@reelsmith/simulator/catalog";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { copyFixtures, lastJsonLine } from "./support/consumer-fixtures.js";
import {
  cleanEnvironment,
  type InstalledProject,
  installIntoEmptyProject,
} from "./support/install-tarballs.js";
import { describeResult, runCommand } from "./support/run-command.js";

/** What test/__fixtures__/core-consumer prints. */
interface ConsumerReport {
  loadedFrom: string;
  catalogSharesErrors: boolean;
  streamedText: string;
  contentChunks: number;
  completionContent: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  toolCalls: unknown[];
  toolRounds: number;
  toolAnswer: string;
  job: { id: string; status: string; duration: number };
  statuses: string[];
  download: { path: string; bytes: number };
  refused: { name: string; code: string; status: number; recognised: boolean; leaksKey: boolean };
}

let project: InstalledProject;
let simulator: Simulator;

beforeAll(async () => {
  [project, simulator] = await Promise.all([
    installIntoEmptyProject([inject("tarballs")["@reelsmith/core"]!]),
    startSimulator({ timeScale: 0.01 }),
  ]);
  await copyFixtures("core-consumer", project.dir);
});

afterAll(async () => {
  await simulator?.close();
  await project?.remove();
});

/** The simulator's models: one that calls tools, and a video model at its smallest size. */
function models() {
  const chat = chatModels.find((model) => model.tools);
  const video = videoModels[0];
  if (!chat || !video || !Array.isArray(video.sizes))
    throw new Error("the simulator lists no tool-calling chat model or no video model with sizes");
  const pixels = (size: string) =>
    size.split("x").reduce((product, side) => product * Number(side), 1);
  const size = [...(video.sizes as readonly string[])].sort((a, b) => pixels(a) - pixels(b))[0]!;
  return { chat: chat.id, video: video.id, size };
}

describe.each([
  { how: "import (an .mjs program)", script: "use-core.mjs" },
  { how: "require (a .cjs program)", script: "use-core.cjs" },
])("@reelsmith/core installed from its tarball, loaded with $how", ({ script }) => {
  it("streams a chat, runs a tool loop and generates a video against the simulator", async () => {
    const { chat, video, size } = models();
    const outDir = path.join(project.dir, script.replace(/\W/g, "-"));
    await mkdir(outDir);
    const result = await runCommand(process.execPath, [script], {
      cwd: project.dir,
      env: cleanEnvironment({
        REELSMITH_BASE_URL: simulator.url,
        REELSMITH_API_KEY: simulator.apiKey,
        CHAT_MODEL: chat,
        VIDEO_MODEL: video,
        VIDEO_SIZE: size,
        OUT_DIR: outDir,
      }),
    });
    expect(result.code, describeResult(result)).toBe(0);
    const report = lastJsonLine<ConsumerReport>(result.stdout);

    // The program used the installed tarball, not the workspace.
    const installed = path.join(await realpath(project.dir), "node_modules", "@reelsmith", "core");
    expect(await realpath(report.loadedFrom)).toBe(path.join(installed, "dist", "index.js"));
    expect(report.catalogSharesErrors).toBe(true);

    // Streamed chat: the chunks joined are the final completion's content.
    expect(report.contentChunks).toBeGreaterThan(1);
    expect(report.streamedText.trim().length).toBeGreaterThan(0);
    expect(report.completionContent).toBe(report.streamedText);
    expect(report.usage.completion_tokens).toBeGreaterThan(0);
    expect(report.usage.total_tokens).toBe(
      report.usage.prompt_tokens + report.usage.completion_tokens,
    );

    // Tool loop: the model called the tool with the city, then answered quoting its result.
    expect(report.toolCalls).toEqual([{ city: "Oslo" }]);
    expect(report.toolRounds).toBe(2);
    expect(report.toolAnswer).toContain("drizzle-7731");

    // Video: polled to completion, downloaded to a file that is an MP4.
    expect(report.job.status).toBe("completed");
    expect(report.statuses.at(-1)).toBe("completed");
    const clip = await readFile(report.download.path);
    expect(clip.length).toBe(report.download.bytes);
    expect(clip.length).toBeGreaterThan(1000);
    expect(clip.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const served = await fetch(`${simulator.url}/v1/videos/${report.job.id}`, {
      headers: { authorization: `Bearer ${simulator.apiKey}` },
    });
    expect(((await served.json()) as { status: string }).status).toBe("completed");

    // A refused key is a typed error that never carries the key.
    expect(report.refused).toEqual({
      name: "AuthenticationError",
      code: "invalid_api_key",
      status: 401,
      recognised: true,
      leaksKey: false,
    });
  });
});
