import type { BinaryInfo } from "@reelsmith/media";
import { type Command, InvalidArgumentError } from "commander";
import { connectionOption } from "../commands/run-command.js";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";
import type { ServiceCheck } from "./check-service.js";
import type { ToolsCheck } from "./check-tools.js";
import type { DoctorReport } from "./doctor-report.js";

/** Flags of `reelsmith doctor`. */
export interface DoctorFlags {
  baseUrl?: string;
  apiKey?: string;
  json?: boolean;
  /** Seconds to wait for the service's answer (default 5). */
  timeout?: number;
}

const sourceLabels: Record<BinaryInfo["source"], string> = {
  env: "from FFMPEG_PATH/FFPROBE_PATH",
  path: "from PATH",
  npm: "bundled npm package",
  given: "given",
};

function binaryLine(binary: BinaryInfo | undefined, context: CliContext): string {
  if (!binary) return "not found";
  return `${binary.version}  ${displayPath(binary.path, context.cwd)}  (${sourceLabels[binary.source]})`;
}

function capabilitiesLine(tools: ToolsCheck): string {
  const capabilities = tools.capabilities;
  if (!capabilities) return "unknown";
  const yes = (value: boolean) => (value ? "yes" : "NO");
  const transitions =
    tools.transitions === "xfade"
      ? "yes (xfade)"
      : tools.transitions === "fade + overlay"
        ? "yes (fade + overlay; this ffmpeg has no xfade)"
        : "NO";
  return [
    `libx264 ${yes(capabilities.libx264)}`,
    `aac ${yes(capabilities.aac)}`,
    `drawtext ${yes(capabilities.drawtext)}`,
    `subtitles ${yes(capabilities.subtitles)}`,
    `transitions ${transitions}`,
  ].join(", ");
}

function settingLabel(source: ServiceCheck["baseURLSource"], name: string, flag: string): string {
  if (source === "flag") return flag;
  if (source === "profile") return name === "API_KEY" ? "the profile's api_key_env" : "profile";
  return `${source}_${name}`;
}

function serviceLine(service: ServiceCheck): string {
  const keySource =
    service.apiKey.source === "profile" && service.apiKey.variable
      ? `${service.apiKey.variable}, from the profile's api_key_env`
      : settingLabel(service.apiKey.source, "API_KEY", "--api-key");
  const key = service.apiKey.set ? `key set (${keySource})` : "no key";
  const where =
    service.mode === "built-in"
      ? `built-in simulator (no REELSMITH_BASE_URL, profile base_url or OPENAI_BASE_URL set)${service.profile ? `, serving the profile's models` : ""}`
      : `${service.baseURL} (${settingLabel(service.baseURLSource, "BASE_URL", "--base-url")}), ${key}`;
  const answer = service.reachable
    ? `GET /v1/models answered ${service.status} with ${service.models} model${service.models === 1 ? "" : "s"} in ${service.elapsedMs} ms`
    : `GET /v1/models failed: ${service.error}`;
  return `${where}\n${" ".repeat(14)}${answer}`;
}

/** One line per provider account: its dialect, where it is, its key, its answer. */
function accountLines(accounts: ServiceCheck["accounts"]): string {
  return accounts
    .map((account) => {
      const key = account.apiKey.set
        ? `key set (${account.apiKey.variable})`
        : account.apiKey.variables.length > 0
          ? `no key (${account.apiKey.variables.join(account.apiKey.parted ? " and " : " or ")} unset)`
          : "no key variable named";
      const where =
        account.mode === "built-in"
          ? "a built-in simulator of its dialect at each run"
          : `${account.baseURL}, ${key}`;
      const answer = account.models
        ? account.models.reachable
          ? `, GET /v1/models answered ${account.models.status} with ${account.models.models} model${account.models.models === 1 ? "" : "s"}`
          : `, GET /v1/models failed: ${account.models.error}`
        : account.mode === "configured" && !account.problem
          ? ", not asked (it lists no models: its key is first used by a run's first request)"
          : "";
      const limit =
        account.maxConcurrentJobs !== undefined
          ? `, ${account.maxConcurrentJobs} jobs at once`
          : "";
      return `${account.name} (${account.dialect}): ${where}${limit}${answer}`;
    })
    .join(`\n${" ".repeat(14)}`);
}

/**
 * The human-readable report: one line per subject, then the problems and warnings and a verdict.
 *
 * @example
 * context.stdout.write(formatDoctorReport(report, context));
 */
export function formatDoctorReport(report: DoctorReport, context: CliContext): string {
  const { tools } = report;
  const rows: [string, string][] = [
    ["ffmpeg", tools.error && !tools.ffmpeg ? "not usable" : binaryLine(tools.ffmpeg, context)],
    ["ffprobe", tools.error && !tools.ffprobe ? "not usable" : binaryLine(tools.ffprobe, context)],
    ["capabilities", capabilitiesLine(tools)],
    ["font", tools.font ? displayPath(tools.font, context.cwd) : "unknown"],
  ];
  if (tools.ffmpeg?.source !== "npm" && tools.bundled.ffmpeg) {
    rows.push(["bundled", `${displayPath(tools.bundled.ffmpeg, context.cwd)} (not used)`]);
  }
  const profile = report.service.profile;
  rows.push(
    [
      "profile",
      profile
        ? `${profile.file} (dialect ${profile.dialect}, ${profile.videoModels} video model${profile.videoModels === 1 ? "" : "s"}, ${profile.chatModels} chat model${profile.chatModels === 1 ? "" : "s"})`
        : "none (--config, REELSMITH_CONFIG or reelsmith.config.yaml declares the service's models)",
    ],
    ["service", serviceLine(report.service)],
    ...(report.service.accounts.length > 0
      ? [["accounts", accountLines(report.service.accounts)] as [string, string]]
      : []),
    [
      "runs",
      `${displayPath(report.runs.directory, context.cwd)} (${report.runs.count} run${report.runs.count === 1 ? "" : "s"})`,
    ],
    [
      "cache",
      `${displayPath(report.cache.directory, context.cwd)} (${report.cache.entries} entr${report.cache.entries === 1 ? "y" : "ies"})`,
    ],
  );
  const lines = rows.map(([label, value]) => `${label.padEnd(14)}${value}`);
  lines.push("");
  for (const problem of report.problems) lines.push(`problem: ${problem}`);
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  lines.push(
    report.ok
      ? "ok: reelsmith can run pipelines here"
      : `not usable: ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"} above`,
  );
  return `${lines.join("\n")}\n`;
}

/**
 * `reelsmith doctor`: which ffmpeg/ffprobe are used and what they can do, whether the service
 * answers, and where runs and the cache live. Exit 0 when reelsmith can work here, 1 when
 * something it needs is missing.
 *
 * @example
 * const code = await doctorCommand({ json: true }, context);
 */
export async function doctorCommand(flags: DoctorFlags, context: CliContext): Promise<number> {
  const timeoutMs = (flags.timeout ?? 5) * 1000;
  // Loaded on use: media, the client and the runner are not needed to start the CLI.
  const [{ checkService }, { checkTools }, { buildDoctorReport }] = await Promise.all([
    import("./check-service.js"),
    import("./check-tools.js"),
    import("./doctor-report.js"),
  ]);
  const [tools, service] = await Promise.all([
    checkTools(),
    checkService(flags, context, timeoutMs),
  ]);
  const report = buildDoctorReport(tools, service, context);
  context.stdout.write(
    flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorReport(report, context),
  );
  return report.ok ? ExitCode.ok : ExitCode.failed;
}

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600) {
    throw new InvalidArgumentError("expected a number of seconds from 0 to 600");
  }
  return seconds;
}

/**
 * Declare `doctor` on the program.
 *
 * @example
 * registerDoctorCommand(program, context, (code) => (exitCode = code));
 */
export function registerDoctorCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("doctor")
    .summary("check ffmpeg, the service and where files go")
    .description(
      "Print which ffmpeg and ffprobe are used (path, where found, version), their capabilities, " +
        "the font, whether the service answers GET /v1/models (the configured one, else the " +
        "built-in simulator), and where runs and the cache live. Exit 0 when reelsmith can run " +
        "pipelines here, 1 when something it needs is missing.",
    )
    .addOption(connectionOption("--base-url <url>", "service base URL"))
    .addOption(connectionOption("--api-key <key>", "API key"))
    .option("--timeout <seconds>", "how long to wait for the service (default 5)", parseSeconds)
    .option("--json", "print the report as JSON")
    .action(async (flags: DoctorFlags) => done(await doctorCommand(flags, context)));
}
