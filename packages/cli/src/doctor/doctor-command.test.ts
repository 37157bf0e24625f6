import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { providerNames } from "@reelsmith/core/catalog";
import { locateFfmpeg } from "@reelsmith/media";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  onTestFinished,
  vi,
} from "vitest";
import { createTestContext } from "../__fixtures__/test-context.js";
import { executeCli } from "../program.js";
import type { DoctorReport } from "./doctor-report.js";

/** The providers a bad dialect's message lists: "reference, openai, fal or …", from the registry. */
const allowedDialects = `${providerNames.slice(0, -1).join(", ")} or ${providerNames.at(-1)}`;

let dir = "";
let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ host: "127.0.0.1", port: 0 });
});
afterAll(() => simulator.close());
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "reelsmith-doctor-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function doctor(args: string[], env: Record<string, string> = {}) {
  const { context, output } = createTestContext({ cwd: dir, env });
  const code = await executeCli(["doctor", ...args], context);
  return { code, output };
}

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("reelsmith doctor", () => {
  it("reports the ffmpeg in use, its capabilities, the built-in simulator, runs and cache", async () => {
    await mkdir(path.join(dir, "runs", "20260101-000000-demo"), { recursive: true });
    await writeFile(path.join(dir, "runs", "20260101-000000-demo", "run.json"), "{}");
    const { code, output } = await doctor(["--json"]);
    expect(output.stderr).toBe("");
    expect(code).toBe(0);
    const report = JSON.parse(output.stdout) as DoctorReport;
    const tools = await locateFfmpeg();
    expect(report.ok).toBe(true);
    expect(report.problems).toEqual([]);
    expect(report.tools.ffmpeg).toEqual(tools.ffmpeg);
    expect(report.tools.ffprobe).toEqual(tools.ffprobe);
    expect(report.tools.capabilities).toEqual(tools.capabilities);
    expect(report.tools.transitions).toBe(tools.capabilities.xfade ? "xfade" : "fade + overlay");
    expect(report.tools.font).toBe(tools.fontFile);
    expect(report.service).toMatchObject({ mode: "built-in", reachable: true, status: 200 });
    expect(report.service.models).toBeGreaterThan(0);
    expect(report.runs).toEqual({ directory: path.join(dir, "runs"), count: 1 });
    expect(report.cache).toEqual({ directory: path.join(dir, ".reelsmith", "cache"), entries: 0 });
  });

  it("prints one line per subject and says it is usable", async () => {
    const { code, output } = await doctor([]);
    expect(code).toBe(0);
    const tools = await locateFfmpeg();
    expect(output.stdout).toMatch(
      new RegExp(`^ffmpeg +${tools.ffmpeg.version.replace(/[.+]/g, "\\$&")} `, "m"),
    );
    expect(output.stdout).toMatch(
      /^capabilities +libx264 yes, aac yes, drawtext yes, subtitles yes, transitions yes/m,
    );
    expect(output.stdout).toMatch(/^service +built-in simulator/m);
    expect(output.stdout).toMatch(/GET \/v1\/models answered 200 with \d+ models/);
    expect(output.stdout).toMatch(/^runs +runs \(0 runs\)$/m);
    expect(output.stdout).toMatch(/^cache +\.reelsmith\/cache \(0 entries\)$/m);
    expect(output.stdout.trim().split("\n").at(-1)).toBe("ok: reelsmith can run pipelines here");
  });

  it("takes the base URL and key from the provider profile in the directory and names both", async () => {
    // A simulator of its own: the next test counts the shared one's requests.
    const own = await startSimulator({ host: "127.0.0.1", port: 0 });
    onTestFinished(() => own.close());
    await writeFile(
      path.join(dir, "reelsmith.config.yaml"),
      `service:\n  base_url: ${own.url}\n  api_key_env: [DOCTOR_KEY, REELSMITH_API_KEY]\nvideo_models:\n  veo-3-fast: { seconds: [4, 8] }\n`,
    );
    const { code, output } = await doctor([], { DOCTOR_KEY: own.apiKey });
    expect(output.stderr).toBe("");
    expect(code).toBe(0);
    expect(output.stdout).toMatch(
      /^profile +reelsmith\.config\.yaml \(dialect reference, 1 video model, 0 chat models\)$/m,
    );
    expect(output.stdout).toContain(
      `${own.url} (profile), key set (DOCTOR_KEY, from the profile's api_key_env)`,
    );
    expect(output.stdout).toMatch(/answered 200/);
    expect(output.stdout).not.toContain(own.apiKey);
  });

  it("checks each provider account: its address, its key and, where it lists them, its models", async () => {
    // Simulators of its own: another test counts the shared one's requests.
    const own = await startSimulator({ host: "127.0.0.1", port: 0 });
    const other = await startSimulator({ host: "127.0.0.1", port: 0 });
    onTestFinished(() => Promise.all([own.close(), other.close()]).then(() => undefined));
    await writeFile(
      path.join(dir, "reelsmith.config.yaml"),
      [
        "service:",
        `  base_url: ${own.url}`,
        "  api_key_env: [DOCTOR_KEY]",
        "providers:",
        "  second:",
        "    dialect: reference",
        `    base_url: ${other.url}`,
        "    api_key_env: [SECOND_KEY]",
        "    max_concurrent_jobs: 2",
        "  fal:",
        "    dialect: fal",
        "    base_url: http://127.0.0.1:9/fal",
        "    api_key_env: [DOCTOR_FAL_KEY]",
        "  kling:",
        "    dialect: kling",
        "    base_url: http://127.0.0.1:9/kling",
        "    api_key_env: [DOCTOR_KLING_ACCESS, DOCTOR_KLING_SECRET]",
        "",
      ].join("\n"),
    );
    const env = {
      DOCTOR_KEY: own.apiKey,
      SECOND_KEY: other.apiKey,
      DOCTOR_FAL_KEY: "fal-key-0123456789",
      DOCTOR_KLING_ACCESS: "kling-access-0123456789",
    };
    const { code, output } = await doctor([], env);
    expect(code).toBe(1);
    expect(output.stdout).toMatch(
      new RegExp(
        `^accounts +second \\(reference\\): ${other.url}, key set \\(SECOND_KEY\\), 2 jobs at once, GET /v1/models answered 200 with \\d+ models$`,
        "m",
      ),
    );
    expect(output.stdout).toContain(
      "fal (fal): http://127.0.0.1:9/fal, key set (DOCTOR_FAL_KEY), not asked (it lists no models",
    );
    expect(output.stdout).toContain(
      "kling (kling): http://127.0.0.1:9/kling, no key (DOCTOR_KLING_ACCESS and DOCTOR_KLING_SECRET unset)",
    );
    expect(output.stdout).toContain(
      "problem: no API key for the provider `kling` (http://127.0.0.1:9/kling) — set each of DOCTOR_KLING_ACCESS and DOCTOR_KLING_SECRET",
    );
    expect(output.stdout.trim().split("\n").at(-1)).toBe("not usable: 1 problem above");
    for (const key of Object.values(env)) expect(output.stdout).not.toContain(key);
    // The second account was asked with its own key, once: wait for its simulator to say so.
    await vi.waitFor(() => expect(other.stats().requests["GET /v1/models"]?.["200"]).toBe(1), {
      timeout: 10_000,
    });
    const json = await doctor(["--json"], {
      ...env,
      DOCTOR_KLING_SECRET: "kling-secret-0123456789",
    });
    expect(json.code).toBe(0);
    const report = JSON.parse(json.output.stdout) as DoctorReport;
    expect(report.service.accounts.map((account) => [account.name, account.mode])).toEqual([
      ["second", "configured"],
      ["fal", "configured"],
      ["kling", "configured"],
    ]);
    expect(report.service.accounts[2]?.apiKey).toEqual({
      set: true,
      variable: "DOCTOR_KLING_ACCESS+DOCTOR_KLING_SECRET",
      variables: ["DOCTOR_KLING_ACCESS", "DOCTOR_KLING_SECRET"],
      parted: true,
    });
  });

  it("says a profile's accounts run on built-in simulators, and refuses half a real setup", async () => {
    const profile = (address: string) =>
      `providers:\n  fal:\n    dialect: fal\n${address}    api_key_env: [DOCTOR_FAL_KEY]\n`;
    await writeFile(path.join(dir, "reelsmith.config.yaml"), profile(""));
    const builtIn = await doctor([]);
    expect(builtIn.code).toBe(0);
    expect(builtIn.output.stdout).toMatch(
      /^accounts +fal \(fal\): a built-in simulator of its dialect at each run$/m,
    );
    await writeFile(
      path.join(dir, "reelsmith.config.yaml"),
      profile("    base_url: http://127.0.0.1:9/fal\n"),
    );
    // As a run refuses it: exit 2, before anything is asked.
    const half = await doctor([]);
    expect(half.code).toBe(2);
    expect(half.output.stderr).toMatch(/set service\.base_url \(or REELSMITH_BASE_URL\)/);
    expect(half.output.stdout).toBe("");
  });

  it("stops with exit 2 at the problem when the profile is bad", async () => {
    await writeFile(path.join(dir, "reelsmith.config.yaml"), "service:\n  dialect: grpc\n");
    const { code, output } = await doctor([]);
    expect(code).toBe(2);
    expect(output.stderr).toMatch(
      new RegExp(`^reelsmith\\.config\\.yaml:2:12: error: .*use ${allowedDialects}`, "m"),
    );
    expect(output.stdout).toBe("");
  });

  it("asks the configured service with its key and never prints the key", async () => {
    const env = { REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: simulator.apiKey };
    const { code, output } = await doctor([], env);
    expect(code).toBe(0);
    expect(output.stdout).toContain(
      `${simulator.url} (REELSMITH_BASE_URL), key set (REELSMITH_API_KEY)`,
    );
    expect(output.stdout).toMatch(/answered 200/);
    const json = await doctor(["--json"], env);
    expect(JSON.parse(json.output.stdout).service).toMatchObject({
      mode: "configured",
      reachable: true,
      apiKey: { set: true, source: "REELSMITH" },
    });
    expect(output.stdout + json.output.stdout).not.toContain(simulator.apiKey);
    // both checks reached this simulator (the configured one), not a built-in one
    // The simulator counts a request once its response has closed: wait for it to say so.
    await vi.waitFor(() => expect(simulator.stats().requests["GET /v1/models"]?.["200"]).toBe(2), {
      timeout: 10_000,
    });
  });

  it("exits 1 when the configured service refuses the key", async () => {
    const { code, output } = await doctor(["--json", "--api-key", "sk-wrong-key-0000"], {
      REELSMITH_BASE_URL: simulator.url,
    });
    expect(code).toBe(1);
    const report = JSON.parse(output.stdout) as DoctorReport;
    expect(report.ok).toBe(false);
    expect(report.service).toMatchObject({ reachable: false, status: 401 });
    expect(report.problems.join("\n")).toMatch(/API key was refused/);
    expect(output.stdout).not.toContain("sk-wrong-key-0000");
  });

  it("exits 1 when nothing answers at the configured address", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, output } = await doctor(["--timeout", "3"], {
      REELSMITH_BASE_URL: url,
      REELSMITH_API_KEY: "sk-x",
    });
    expect(code).toBe(1);
    expect(output.stdout).toMatch(new RegExp(`problem: the service at ${url} did not answer`));
    expect(output.stdout).toMatch(/unreachable/);
    expect(output.stdout.trim().split("\n").at(-1)).toBe("not usable: 1 problem above");
  });

  it("exits 1 naming FFMPEG_PATH when it points at nothing", async () => {
    const saved = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = path.join(dir, "no-such-ffmpeg");
    try {
      const { code, output } = await doctor(["--json"]);
      expect(code).toBe(1);
      const report = JSON.parse(output.stdout) as DoctorReport;
      expect(report.tools.ffmpeg).toBeUndefined();
      expect(report.problems.join("\n")).toContain("no-such-ffmpeg");
      expect(report.problems.join("\n")).toMatch(/set FFMPEG_PATH and FFPROBE_PATH/);
    } finally {
      if (saved === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = saved;
      await locateFfmpeg({ refresh: true });
    }
  });

  it("refuses a timeout that is not a number of seconds", async () => {
    const { code, output } = await doctor(["--timeout", "soon"]);
    expect(code).toBe(2);
    expect(output.stderr).toMatch(/--timeout/);
  });
});
