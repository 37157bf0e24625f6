import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { listCache } from "@reelsmith/runner/cache";
import type { CliContext } from "../context.js";
import type { ServiceCheck } from "./check-service.js";
import { optionalCapabilities, requiredCapabilities, type ToolsCheck } from "./check-tools.js";

/** Everything `reelsmith doctor` reports (also its `--json` output). */
export interface DoctorReport {
  /** True when reelsmith can run pipelines here: nothing in `problems`. */
  ok: boolean;
  tools: ToolsCheck;
  service: ServiceCheck;
  /** Where `reelsmith run` puts run directories, and how many are there. */
  runs: { directory: string; count: number };
  /** Where results are cached, and how many entries it holds. */
  cache: { directory: string; entries: number };
  /** What stops reelsmith from working; each says what to do. */
  problems: string[];
  /** What only some pipelines need. */
  warnings: string[];
}

function countRuns(directory: string): number {
  if (!existsSync(directory)) return 0;
  return readdirSync(directory, { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && existsSync(path.join(directory, entry.name, "run.json")),
  ).length;
}

/**
 * Put the checks together with the run and cache directories of `context.cwd`, and decide
 * what is a problem (exit 1) and what a warning.
 *
 * @example
 * const report = buildDoctorReport(await checkTools(), await checkService({}, context, 5000), context);
 */
export function buildDoctorReport(
  tools: ToolsCheck,
  service: ServiceCheck,
  context: CliContext,
): DoctorReport {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (tools.error) {
    problems.push(
      `ffmpeg/ffprobe not usable: ${tools.error} — set FFMPEG_PATH and FFPROBE_PATH, put them on PATH, or reinstall to get @ffmpeg-installer/ffmpeg`,
    );
  }
  const version = tools.ffmpeg?.version ?? "";
  for (const capability of requiredCapabilities) {
    if (tools.capabilities && !tools.capabilities[capability]) {
      problems.push(
        `ffmpeg ${version} lacks ${capability}, which every pipeline needs — use another build (FFMPEG_PATH) or unset it to use the bundled one`,
      );
    }
  }
  for (const capability of optionalCapabilities) {
    if (tools.capabilities && !tools.capabilities[capability]) {
      warnings.push(
        `ffmpeg ${version} lacks ${capability}: steps that use it will fail; the bundled ffmpeg has it`,
      );
    }
  }
  if (!service.reachable) {
    problems.push(
      service.mode === "built-in"
        ? `the built-in simulator did not answer: ${service.error}`
        : `the service at ${service.baseURL} did not answer GET /v1/models: ${service.error}`,
    );
  } else if (service.mode === "configured" && !service.apiKey.set) {
    warnings.push(
      "no API key is set (REELSMITH_API_KEY): a service that needs one will refuse jobs",
    );
  }
  for (const account of service.accounts) if (account.problem) problems.push(account.problem);
  const runsDirectory = path.resolve(context.cwd, "runs");
  const cacheDirectory = path.resolve(context.cwd, ".reelsmith", "cache");
  return {
    ok: problems.length === 0,
    tools,
    service,
    runs: { directory: runsDirectory, count: countRuns(runsDirectory) },
    cache: { directory: cacheDirectory, entries: listCache({ cacheDir: cacheDirectory }).length },
    problems,
    warnings,
  };
}
