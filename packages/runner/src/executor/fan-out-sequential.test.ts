// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { echoKind } from "../../test/helpers/pure-kinds.js";
import type { RunEvent } from "../events/run-event.js";
import { runPipeline } from "../run-pipeline.js";
import { defineStepKind } from "../steps/define-step-kind.js";

const root = mkdtempSync(join(tmpdir(), "reelsmith-sequential-"));

/**
 * A kind that writes `text` to `output` in the run directory, and fails while the file
 * `blocker` exists (so a test decides when an item fails, across a resume).
 */
function noteKind(log: string[]) {
  return defineStepKind<{ text: string; output: string; blocker?: string }>({
    kind: "note",
    schema: Type.Object({
      text: Type.String(),
      output: Type.String(),
      blocker: Type.Optional(Type.String()),
    }),
    async run(spec, context) {
      log.push(`run ${context.index}: ${spec.text}`);
      if (spec.blocker && existsSync(spec.blocker)) throw new Error(`blocked by ${spec.blocker}`);
      const file = context.resolveOutputPath(spec.output);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, spec.text);
      return { file, text: spec.text };
    },
  });
}

function options(log: string[], events: RunEvent[], extra: object = {}) {
  return {
    runsRoot: join(root, "runs"),
    cacheDir: join(root, "cache"),
    client: {},
    stepKinds: [echoKind(log), noteKind(log)],
    onEvent: (event: RunEvent) => events.push(event),
    ...extra,
  };
}

describe("sequential fan-out", () => {
  it("runs the items in order, one at a time, each reading the one before as `previous`", async () => {
    const log: string[] = [];
    const events: RunEvent[] = [];
    const result = await runPipeline(
      {
        name: "chain",
        steps: [
          {
            id: "chain",
            for_each: ["a", "b", "c"],
            sequential: true,
            echo: {
              // The first item is slow: in parallel the second would start before it ends.
              delay: "${{ index == 0 && 30 || 1 }}",
              value:
                "${{ previous && previous.outputs.value || 'start' }}>${{ item }}${{ previous.index }}",
            },
          },
        ],
        outputs: { last: "${{ steps.chain.outputs[2].value }}" },
      },
      options(log, events),
    );
    expect(result.error).toBeUndefined();
    expect(result.steps.chain?.outputs).toEqual([
      { value: "start>a" },
      { value: "start>a>b0" },
      { value: "start>a>b0>c1" },
    ]);
    expect(log).toEqual([
      "start chain:0",
      "end chain:0",
      "start chain:1",
      "end chain:1",
      "start chain:2",
      "end chain:2",
    ]);
    // Each item starts after the one before it ended.
    const order = events
      .filter((e) => e.type === "item.start" || e.type === "item.end")
      .map((e) => `${e.type}:${"index" in e ? e.index : ""}`);
    expect(order).toEqual([
      "item.start:0",
      "item.end:0",
      "item.start:1",
      "item.end:1",
      "item.start:2",
      "item.end:2",
    ]);
  });

  it("stops at a failed item (the ones after it would read what it did not make) and says so", async () => {
    const log: string[] = [];
    const events: RunEvent[] = [];
    const result = await runPipeline(
      {
        name: "stops",
        steps: [
          {
            id: "chain",
            for_each: ["a", "b", "c", "d"],
            sequential: true,
            echo: { value: "${{ item }}", fail: "${{ index == 1 }}" },
          },
        ],
      },
      options(log, events),
    );
    expect(result.status).toBe("failed");
    expect(log).toEqual(["start chain:0", "end chain:0", "start chain:1"]);
    expect(result.steps.chain?.outputs).toEqual([{ value: "a" }, null, null, null]);
    const warning = events.find((e) => e.type === "log" && e.level === "warn");
    expect(warning).toMatchObject({
      step: "chain",
      message:
        "items 2–3 of `chain` did not run: item 1 failed, and each item reads the one before it",
    });
  });

  it("resumes in order: done items are reused until one runs again, and every item after it runs again", async () => {
    const blocker = join(root, "blocker");
    writeFileSync(blocker, "");
    const pipeline = {
      name: "resumed",
      steps: [
        {
          id: "notes",
          for_each: ["a", "b", "c", "d"],
          sequential: true,
          note: {
            text: "${{ previous && previous.outputs.text }}${{ item }}",
            output: "notes/${{ index }}.txt",
            blocker: "${{ index == 2 && inputs.blocker || '' }}",
          },
        },
      ],
      inputs: { blocker: { type: "string", default: blocker } },
    };
    const firstLog: string[] = [];
    const first = await runPipeline(pipeline, options(firstLog, []));
    expect(first.status).toBe("failed");
    expect(firstLog).toEqual(["run 0: a", "run 1: ab", "run 2: abc"]);

    // Item 2 can run now: items 0 and 1 are taken from the journal, 2 and 3 run.
    rmSync(blocker);
    const secondLog: string[] = [];
    const secondEvents: RunEvent[] = [];
    const second = await runPipeline(
      undefined,
      options(secondLog, secondEvents, { resume: first.runDir }),
    );
    expect(second.status).toBe("succeeded");
    expect(secondLog).toEqual(["run 2: abc", "run 3: abcd"]);
    expect(
      secondEvents.filter((e) => e.type === "item.end").map((e) => "status" in e && e.status),
    ).toEqual(["reused", "reused", "succeeded", "succeeded"]);
    expect(readFileSync(join(first.runDir, "notes", "3.txt"), "utf8")).toBe("abcd");

    // Item 1's file is changed: it is made again, and so is every item after it, although
    // their own files are intact (they were made from the old item 1).
    writeFileSync(join(first.runDir, "notes", "1.txt"), "tampered");
    const thirdLog: string[] = [];
    const third = await runPipeline(undefined, options(thirdLog, [], { resume: first.runDir }));
    expect(third.status).toBe("succeeded");
    expect(thirdLog).toEqual(["run 1: ab", "run 2: abc", "run 3: abcd"]);
    expect(readFileSync(join(first.runDir, "notes", "1.txt"), "utf8")).toBe("ab");
  });
});
