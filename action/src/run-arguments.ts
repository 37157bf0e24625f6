import path from "node:path";
import { ActionInputError, type ActionInputs } from "./action-inputs.js";

const INPUTS_FILE = /\.(json|ya?ml)$/i;

/**
 * The `--input`/`--inputs` arguments of the action's `inputs`: a single line naming a
 * `.json`, `.yaml` or `.yml` file gives `--inputs FILE` (relative to the working directory);
 * otherwise every line that is not empty or a `#` comment must be `key=value`.
 *
 * @example
 * inputArguments("scenes=2\nstory=A fox", { exists: () => false }); // ["--input", "scenes=2", "--input", "story=A fox"]
 */
export function inputArguments(
  value: string,
  options: { exists: (file: string) => boolean },
): string[] {
  const lines = value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const [only] = lines;
  if (lines.length === 1 && only && !only.includes("=") && INPUTS_FILE.test(only)) {
    if (!options.exists(only)) {
      throw new ActionInputError(
        `the inputs file ${only} does not exist (paths are relative to working-directory)`,
      );
    }
    return ["--inputs", only];
  }
  const args: string[] = [];
  lines.forEach((line, index) => {
    const equals = line.indexOf("=");
    if (equals <= 0) {
      throw new ActionInputError(
        `line ${index + 1} of inputs is not key=value (got '${line.slice(0, 40)}'); give one key=value a line, or the path of a JSON or YAML file`,
      );
    }
    args.push("--input", line);
  });
  return args;
}

/**
 * The URLs of the `notify` input: one a line, or comma-separated.
 *
 * @example
 * notifyUrls("https://a.example.com/h, https://b.example.com/h"); // two URLs
 */
export function notifyUrls(value: string): string[] {
  return value
    .split(/[\n,]/)
    .map((url) => url.trim())
    .filter(Boolean);
}

/**
 * The `reelsmith run` arguments for the action's inputs (always `--json`: the events go to a
 * file the summary reads).
 *
 * @example
 * runArguments(inputs, { exists: (file) => existsSync(file) });
 * // ["run", "pipeline.yaml", "--json", "--input", "scenes=2", …]
 */
export function runArguments(
  inputs: ActionInputs,
  options: { exists: (file: string) => boolean; isBatch?: (dir: string) => boolean },
): string[] {
  if (!inputs.pipeline) throw new ActionInputError("the pipeline input is required");
  if (inputs.cache !== "true" && inputs.cache !== "false") {
    throw new ActionInputError(`cache must be true or false, got '${inputs.cache}'`);
  }
  if (inputs.inputsFile || inputs.resume) return batchArguments(inputs, options);
  if (inputs.parallel) {
    throw new ActionInputError("parallel applies to a batch: give inputs-file too");
  }
  const args = ["run", inputs.pipeline, "--json"];
  args.push(...inputArguments(inputs.inputs, options));
  if (inputs.runDir) args.push("--run-dir", inputs.runDir);
  if (inputs.maxCredits) args.push("--max-credits", inputs.maxCredits);
  if (inputs.cache === "false") args.push("--no-cache");
  for (const url of notifyUrls(inputs.notify)) args.push("--notify", url);
  return args;
}

/**
 * The `reelsmith batch` (or `resume BATCH_DIR`) arguments: `inputs-file` runs a batch, one run
 * per row; `resume` names a batch directory a cancelled job left behind, finished instead when
 * it holds a batch (its journal), else the batch of `inputs-file` starts afresh.
 *
 * @example
 * batchArguments(inputs, { exists, isBatch }); // ["batch", "daily.yaml", "--inputs", "stories.csv", "--json"]
 */
export function batchArguments(
  inputs: ActionInputs,
  options: { exists: (file: string) => boolean; isBatch?: (dir: string) => boolean },
): string[] {
  if (inputs.inputs.trim()) {
    throw new ActionInputError(
      "inputs and inputs-file do not go together: a batch takes each run's inputs from its rows",
    );
  }
  if (inputs.runDir) {
    throw new ActionInputError(
      "run-dir does not apply to a batch: its directory is runs/<time>-<name>-batch (the batch-dir output)",
    );
  }
  if (notifyUrls(inputs.notify).length > 0) {
    throw new ActionInputError(
      "notify does not apply to a batch yet: read the batch's outputs (status, finals) in a later step instead",
    );
  }
  if (inputs.parallel && !/^[1-9]\d*$/.test(inputs.parallel)) {
    throw new ActionInputError(`parallel must be a whole number above 0, got '${inputs.parallel}'`);
  }
  const budget = inputs.maxCredits ? ["--max-credits", inputs.maxCredits] : [];
  if (inputs.resume && options.isBatch?.(inputs.resume)) {
    // A batch keeps the options it was started with (its cache, its parallel rows).
    return ["resume", inputs.resume, "--json", ...budget];
  }
  if (!inputs.inputsFile) {
    throw new ActionInputError(
      `resume names ${inputs.resume}, which holds no batch (no batch.jsonl); give inputs-file too, to start the batch when none was left behind`,
    );
  }
  if (!options.exists(inputs.inputsFile)) {
    throw new ActionInputError(
      `the inputs file ${inputs.inputsFile} does not exist (paths are relative to working-directory)`,
    );
  }
  const args = ["batch", inputs.pipeline, "--inputs", inputs.inputsFile, "--json", ...budget];
  if (inputs.cache === "false") args.push("--no-cache");
  if (inputs.parallel) args.push("--parallel", inputs.parallel);
  return args;
}

/**
 * The CLI's environment: the job's, with the service and the signing secret from the inputs
 * when they are given (an empty input leaves a job-level `REELSMITH_*` variable alone), and
 * without the `INPUT_*` copies of secrets.
 *
 * @example
 * spawn("node", [cli, ...args], { env: cliEnvironment(inputs, process.env) });
 */
export function cliEnvironment(
  inputs: ActionInputs,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !name.startsWith("INPUT_")) result[name] = value;
  }
  if (inputs.baseUrl) result.REELSMITH_BASE_URL = inputs.baseUrl;
  if (inputs.apiKey) result.REELSMITH_API_KEY = inputs.apiKey;
  if (inputs.notifySecret) result.REELSMITH_NOTIFY_SECRET = inputs.notifySecret;
  // The CLI prints plain lines (no live progress) into the job's log.
  result.CI = "true";
  return result;
}

/**
 * The artifact that holds the run directory: the `artifact-name` input, else `reelsmith-`
 * and the run directory's name (with the attempt when a job is re-run), made of characters
 * artifact names accept.
 *
 * @example
 * artifactName({ input: "", runDir: "/w/runs/20260101-100000-storyboard", attempt: "1" });
 * // "reelsmith-20260101-100000-storyboard"
 */
export function artifactName(options: { input: string; runDir: string; attempt?: string }): string {
  const base = options.input || `reelsmith-${path.basename(options.runDir)}`;
  const attempt =
    !options.input && options.attempt && options.attempt !== "1"
      ? `-attempt-${options.attempt}`
      : "";
  return `${base}${attempt}`.replace(/["':<>|*?\\/\r\n]/g, "-");
}
