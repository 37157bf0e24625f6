/** The action's inputs, as the composite's steps hand them over (`INPUT_*` variables). */
export interface ActionInputs {
  pipeline: string;
  /** Multi-line `key=value`, or the path of a JSON/YAML inputs file. */
  inputs: string;
  /** A CSV, JSONL or YAML file of rows: runs a batch, one run per row. */
  inputsFile: string;
  /** Rows at once in a batch. */
  parallel: string;
  /** A batch directory to finish; when it holds no batch, the batch of `inputsFile` runs. */
  resume: string;
  baseUrl: string;
  apiKey: string;
  maxCredits: string;
  runDir: string;
  /** `true` or `false`. */
  cache: string;
  /** URLs, one a line or comma-separated. */
  notify: string;
  notifySecret: string;
  workingDirectory: string;
  artifactName: string;
}

/** An input the action cannot use: reported as one `::error::` line before anything runs. */
export class ActionInputError extends Error {
  readonly code = "invalid_action_input";
  constructor(message: string) {
    super(message);
    this.name = "ActionInputError";
  }
}

/**
 * Read the action's inputs from the environment (`INPUT_PIPELINE`, `INPUT_BASE_URL`, …);
 * absent ones are empty strings, as GitHub passes them.
 *
 * @example
 * const inputs = readActionInputs(process.env);
 */
export function readActionInputs(env: Record<string, string | undefined>): ActionInputs {
  const get = (name: string) => (env[`INPUT_${name}`] ?? "").trim();
  return {
    pipeline: get("PIPELINE"),
    inputs: env.INPUT_INPUTS ?? "",
    inputsFile: get("INPUTS_FILE"),
    parallel: get("PARALLEL"),
    resume: get("RESUME"),
    baseUrl: get("BASE_URL"),
    apiKey: get("API_KEY"),
    maxCredits: get("MAX_CREDITS"),
    runDir: get("RUN_DIR"),
    cache: get("CACHE") || "true",
    notify: get("NOTIFY"),
    notifySecret: get("NOTIFY_SECRET"),
    workingDirectory: get("WORKING_DIRECTORY") || ".",
    artifactName: get("ARTIFACT_NAME"),
  };
}
