import { describe, expect, it } from "vitest";
import { ActionInputError, readActionInputs } from "./action-inputs.js";
import { artifactName, cliEnvironment, inputArguments, runArguments } from "./run-arguments.js";

const none = { exists: () => false };

describe("the run step's arguments", () => {
  it("turns key=value lines into --input, skipping blanks and comments, keeping further '='", () => {
    expect(inputArguments("scenes=2\n\n# note\n story = A=B \r\n", none)).toEqual([
      "--input",
      "scenes=2",
      "--input",
      "story = A=B",
    ]);
    expect(inputArguments("", none)).toEqual([]);
  });

  it("takes a single JSON or YAML path as an inputs file, and says when it is missing", () => {
    expect(inputArguments("inputs/nightly.yaml", { exists: () => true })).toEqual([
      "--inputs",
      "inputs/nightly.yaml",
    ]);
    expect(() => inputArguments("inputs/nightly.json", none)).toThrow(
      "the inputs file inputs/nightly.json does not exist (paths are relative to working-directory)",
    );
    expect(() => inputArguments("a=1\nnot a pair", none)).toThrow(ActionInputError);
    expect(() => inputArguments("=value", none)).toThrow("line 1 of inputs is not key=value");
  });

  it("maps every input to its flag, always with --json", () => {
    const inputs = readActionInputs({
      INPUT_PIPELINE: " pipelines/nightly.yaml ",
      INPUT_INPUTS: "scenes=3",
      INPUT_RUN_DIR: "runs/nightly",
      INPUT_MAX_CREDITS: "200",
      INPUT_CACHE: "false",
      INPUT_NOTIFY: "https://a.example.com/h\nhttps://b.example.com/h, https://c.example.com/h",
    });
    expect(runArguments(inputs, none)).toEqual([
      "run",
      "pipelines/nightly.yaml",
      "--json",
      "--input",
      "scenes=3",
      "--run-dir",
      "runs/nightly",
      "--max-credits",
      "200",
      "--no-cache",
      "--notify",
      "https://a.example.com/h",
      "--notify",
      "https://b.example.com/h",
      "--notify",
      "https://c.example.com/h",
    ]);
    expect(runArguments(readActionInputs({ INPUT_PIPELINE: "p.yaml" }), none)).toEqual([
      "run",
      "p.yaml",
      "--json",
    ]);
    expect(() => runArguments(readActionInputs({}), none)).toThrow(
      "the pipeline input is required",
    );
    expect(() =>
      runArguments(readActionInputs({ INPUT_PIPELINE: "p.yaml", INPUT_CACHE: "yes" }), none),
    ).toThrow("cache must be true or false, got 'yes'");
  });

  it("passes the service from the inputs only when given, and drops the INPUT_ copies", () => {
    const env = {
      PATH: "/bin",
      REELSMITH_BASE_URL: "https://from-the-job.example.com",
      INPUT_API_KEY: "sk-secret",
      INPUT_PIPELINE: "p.yaml",
    };
    const fromJob = cliEnvironment(readActionInputs(env), env);
    expect(fromJob).toEqual({
      PATH: "/bin",
      REELSMITH_BASE_URL: "https://from-the-job.example.com",
      REELSMITH_API_KEY: "sk-secret",
      CI: "true",
    });
    const given = { ...env, INPUT_BASE_URL: "https://api.example.com", INPUT_NOTIFY_SECRET: "s" };
    expect(cliEnvironment(readActionInputs(given), given)).toMatchObject({
      REELSMITH_BASE_URL: "https://api.example.com",
      REELSMITH_NOTIFY_SECRET: "s",
    });
  });

  it("names the artifact after the run directory, or as told, with characters GitHub accepts", () => {
    expect(artifactName({ input: "", runDir: "/w/runs/20260101-100000-storyboard" })).toBe(
      "reelsmith-20260101-100000-storyboard",
    );
    expect(artifactName({ input: "", runDir: "/w/runs/nightly", attempt: "2" })).toBe(
      "reelsmith-nightly-attempt-2",
    );
    expect(artifactName({ input: 'my: "film"', runDir: "/w/runs/x", attempt: "2" })).toBe(
      "my- -film-",
    );
  });
});

describe("a batch's arguments", () => {
  const batch = (env: Record<string, string>) =>
    readActionInputs({ INPUT_PIPELINE: "daily.yaml", ...env });
  const exists = { exists: () => true, isBatch: (dir: string) => dir === "runs/left" };

  it("runs `batch` for inputs-file, with the budget, the cache and the parallel rows", () => {
    expect(
      runArguments(
        batch({
          INPUT_INPUTS_FILE: "stories.csv",
          INPUT_MAX_CREDITS: "300",
          INPUT_CACHE: "false",
          INPUT_PARALLEL: "3",
        }),
        exists,
      ),
    ).toEqual([
      "batch",
      "daily.yaml",
      "--inputs",
      "stories.csv",
      "--json",
      "--max-credits",
      "300",
      "--no-cache",
      "--parallel",
      "3",
    ]);
  });

  it("resumes the batch a directory holds, else starts the file's", () => {
    const inputs = { INPUT_INPUTS_FILE: "stories.csv", INPUT_MAX_CREDITS: "50" };
    expect(runArguments(batch({ ...inputs, INPUT_RESUME: "runs/left" }), exists)).toEqual([
      "resume",
      "runs/left",
      "--json",
      "--max-credits",
      "50",
    ]);
    expect(runArguments(batch({ ...inputs, INPUT_RESUME: "runs/none" }), exists)[0]).toBe("batch");
  });

  it("refuses what does not apply to a batch, saying which input", () => {
    const file = { INPUT_INPUTS_FILE: "stories.csv" };
    expect(() => runArguments(batch({ ...file, INPUT_RUN_DIR: "runs/x" }), exists)).toThrow(
      "run-dir does not apply to a batch",
    );
    expect(() =>
      runArguments(batch({ ...file, INPUT_NOTIFY: "https://a.example.com" }), exists),
    ).toThrow("notify does not apply to a batch");
    expect(() => runArguments(batch({ ...file, INPUT_PARALLEL: "two" }), exists)).toThrow(
      "parallel must be a whole number above 0, got 'two'",
    );
    expect(() => runArguments(batch({ INPUT_PARALLEL: "2" }), exists)).toThrow(
      "parallel applies to a batch",
    );
    expect(() => runArguments(batch(file), { exists: () => false, isBatch: () => false })).toThrow(
      "the inputs file stories.csv does not exist",
    );
  });
});
