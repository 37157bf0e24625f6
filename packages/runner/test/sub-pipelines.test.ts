import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../src/pipeline/diagnostic.js";
import { PipelineLoadError } from "../src/pipeline/errors/pipeline-load-error.js";
import { MAX_SUB_PIPELINE_DEPTH } from "../src/pipeline/sub-pipelines.js";
import { validatePipeline } from "../src/pipeline/validate-pipeline.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

/** A pipeline whose one chat step has a tool running `file` (line 9, column 19 of `pipeline:`'s value). */
const caller = (file: string) => `name: caller
inputs:
  text: { type: string, default: a fox }
steps:
  - id: ask
    chat:
      model: reel-chat-1
      prompt: "Use the tool on: \${{ inputs.text }}"
      tool_choice: sub
      tools:
        - name: sub
          parameters: { type: object, properties: { text: { type: string } } }
          pipeline: ${file}
outputs:
  text: \${{ steps.ask.outputs.text }}
`;
const AT = 13;
const COLUMN = 21;

describe("sub-pipeline tools are checked before anything runs", () => {
  let service: TestService;
  let root: string;
  const write = (name: string, text: string | Buffer) => {
    const file = join(root, name);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  const errorsOf = async (file: string) =>
    (await validatePipeline(file)).diagnostics.filter((d) => d.severity === "error");
  beforeAll(async () => {
    service = await startTestService();
    root = service.root;
  });
  afterAll(() => service.close());

  it("refuses a pipeline that names itself, at the pipeline: entry", async () => {
    const file = write("self.yaml", caller("self.yaml"));
    const errors = await errorsOf(file);
    expect(errors.map(formatDiagnostic).join("\n")).toContain(
      `self.yaml:${AT}:${COLUMN}: error: sub-pipeline cycle: self.yaml → self.yaml`,
    );
    expect(errors).toHaveLength(1);
  });

  it("refuses A → B → A with the entry in each file, paths relative to the naming file", async () => {
    const a = write("cycle/a.yaml", caller("deeper/b.yaml"));
    write("cycle/deeper/b.yaml", caller("../a.yaml"));
    const shown = (await errorsOf(a)).map(formatDiagnostic).join("\n");
    expect(shown).toContain(
      `deeper/b.yaml:${AT}:${COLUMN}: error: sub-pipeline cycle: a.yaml → deeper/b.yaml → a.yaml`,
    );
    expect(shown).toContain(
      `a.yaml:${AT}:${COLUMN}: error: tool pipeline deeper/b.yaml is not a valid pipeline`,
    );
  });

  it("reports a sub-file's own problems against that file, and refuses non-pipelines", async () => {
    write(
      "broken/sub.yaml",
      "name: sub\nsteps:\n  - id: s\n    chat: { model: reel-chat-1, prompt: x, temperature: 7 }\n",
    );
    write("broken/binary.yaml", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
    mkdirSync(join(root, "broken", "folder.yaml"), { recursive: true });
    const file = write(
      "broken/main.yaml",
      `name: main
steps:
  - id: ask
    chat:
      model: reel-chat-1
      prompt: hi
      tools:
        - { name: a, pipeline: sub.yaml }
        - { name: b, pipeline: /etc/passwd }
        - { name: c, pipeline: binary.yaml }
        - { name: d, pipeline: folder.yaml }
        - { name: e, pipeline: missing.yaml }
`,
    );
    const errors = await errorsOf(file);
    const shown = errors.map(formatDiagnostic).join("\n");
    expect(shown).toContain("sub.yaml:4:57: error: temperature must be between 0 and 2, got 7");
    expect(shown).toContain(
      "main.yaml:8:32: error: tool pipeline sub.yaml is not a valid pipeline",
    );
    expect(shown).toContain(
      "/etc/passwd:1:1: error: the top level of a pipeline must be a mapping",
    );
    expect(shown).toContain(
      "main.yaml:9:32: error: tool pipeline /etc/passwd is not a valid pipeline",
    );
    expect(shown).toContain(
      "binary.yaml:1:1: error: not a YAML pipeline: the file contains binary data",
    );
    expect(shown).toContain(
      "main.yaml:10:32: error: tool pipeline binary.yaml is not a valid pipeline",
    );
    expect(shown).toContain("main.yaml:11:32: error: tool pipeline folder.yaml is not a file");
    expect(shown).toContain("main.yaml:12:32: error: tool pipeline not found: missing.yaml");
    expect(errors).toHaveLength(8);
  });

  it("refuses a chain deeper than the limit", async () => {
    for (let level = 0; level <= MAX_SUB_PIPELINE_DEPTH + 1; level++) {
      write(`chain/p${level}.yaml`, caller(`p${level + 1}.yaml`));
    }
    write(
      `chain/p${MAX_SUB_PIPELINE_DEPTH + 2}.yaml`,
      "name: leaf\nsteps:\n  - { id: s, chat: { model: reel-chat-1, prompt: x } }\n",
    );
    const shown = (await errorsOf(join(root, "chain/p0.yaml"))).map(formatDiagnostic).join("\n");
    expect(shown).toContain(
      `p${MAX_SUB_PIPELINE_DEPTH}.yaml:${AT}:${COLUMN}: error: sub-pipelines nest deeper than ${MAX_SUB_PIPELINE_DEPTH} levels`,
    );
  });

  it("run refuses a cyclic pipeline before any request", async () => {
    const file = write("run/self.yaml", caller("self.yaml"));
    await expect(runPipeline(file, service.options({ cache: false }))).rejects.toBeInstanceOf(
      PipelineLoadError,
    );
    expect(service.simulator.stats().requests).toEqual({});
  });

  it("stops a run-time cycle (a path from an expression) at the depth limit, failing the run", async () => {
    const file = write(
      "runtime/self.yaml",
      caller(`\${{ inputs.self }}`).replace(
        "inputs:\n",
        "inputs:\n  self: { type: string, default: self.yaml }\n",
      ),
    );
    expect(await errorsOf(file)).toEqual([]);
    const before = service.simulator.stats().chatCompletions;
    const result = await runPipeline(file, service.options({ cache: false }));
    expect(result.status).toBe("failed");
    expect(result.error?.message).toContain(`levels deep; the limit is ${MAX_SUB_PIPELINE_DEPTH}`);
    // One completion per level, then the run stops: the error is not handed back to a model.
    expect(service.simulator.stats().chatCompletions - before).toBe(MAX_SUB_PIPELINE_DEPTH + 1);
  });
});
