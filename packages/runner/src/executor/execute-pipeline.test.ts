// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { echoKind } from "../../test/helpers/pure-kinds.js";
import type { RunEvent } from "../events/run-event.js";
import { runPipeline } from "../run-pipeline.js";

const root = mkdtempSync(join(tmpdir(), "reelsmith-exec-"));

function run(spec: object, extra: Parameters<typeof runPipeline>[1] = {}, log: string[] = []) {
  const events: RunEvent[] = [];
  const result = runPipeline(spec, {
    runsRoot: join(root, "runs"),
    cacheDir: join(root, "cache"),
    client: {},
    stepKinds: [echoKind(log)],
    onEvent: (e) => events.push(e),
    ...extra,
  });
  return { result, events };
}

describe("executePipeline", () => {
  it("passes outputs along the DAG, fans out in item order and evaluates outputs", async () => {
    const { result, events } = run({
      name: "dag",
      inputs: { n: { type: "integer", default: 2 } },
      steps: [
        {
          id: "list",
          echo: {
            value: ["a", "b", "c"],
            usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
          },
        },
        {
          id: "each",
          for_each: "${{ steps.list.outputs.value }}",
          max_parallel: 2,
          echo: { value: "${{ item }}-${{ index }}", delay: "${{ index == 0 && 20 || 1 }}" },
        },
        { id: "last", echo: { value: "${{ join(steps.each.outputs.*.value, ',') }}" } },
      ],
      outputs: { joined: "${{ steps.last.outputs.value }}", n: "${{ inputs.n }}" },
    });
    const r = await result;
    expect(r.error).toBeUndefined();
    expect(r.status).toBe("succeeded");
    expect(r.outputs).toEqual({ joined: "a-0,b-1,c-2", n: 2 });
    expect(r.totals.totalTokens).toBe(5);
    expect(r.steps.each?.outputs).toEqual([{ value: "a-0" }, { value: "b-1" }, { value: "c-2" }]);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("run.start");
    expect(types.at(-1)).toBe("run.end");
    expect(types.filter((t) => t === "item.end")).toHaveLength(3);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const logged = readFileSync(join(r.runDir, "events.ndjson"), "utf8").trim().split("\n");
    expect(logged).toHaveLength(events.length);
    const journal = readFileSync(join(r.runDir, "journal.jsonl"), "utf8");
    expect(journal).toContain('"type":"item.end"');
  });

  it("skips on a false if, continues on error, and fails the run on an uncontinued error", async () => {
    const { result, events } = run({
      name: "flow",
      steps: [
        { id: "maybe", if: "${{ false }}", echo: { value: 1 } },
        { id: "soft", continue_on_error: true, echo: { fail: true } },
        { id: "after", echo: { value: "${{ steps.soft.outputs.value }}" } },
        { id: "hard", needs: ["after"], echo: { fail: true } },
        { id: "never", needs: ["hard"], echo: { value: 2 } },
        { id: "cleanup", needs: ["hard"], if: "${{ always() }}", echo: { value: 3 } },
      ],
    });
    const r = await result;
    expect(r.status).toBe("failed");
    expect(r.steps.maybe?.status).toBe("skipped");
    expect(r.steps.soft).toMatchObject({ status: "failed", continued: true });
    expect(r.steps.after?.status).toBe("succeeded");
    expect(r.steps.never?.status).toBe("skipped");
    expect(r.steps.cleanup?.status).toBe("succeeded");
    expect(r.error?.message).toContain('step "hard" failed: echo hard:- failed on purpose');
    expect(events.find((e) => e.type === "step.fail" && e.step === "soft")).toMatchObject({
      continued: true,
    });
  });

  it("retries with back-off and honours a timeout", async () => {
    const { result, events } = run({
      name: "retry",
      steps: [
        {
          id: "flaky",
          retry: { attempts: 3, backoff_ms: 1, factor: 2 },
          echo: { failTimes: 2, value: "ok" },
        },
        { id: "slow", timeout: "20ms", echo: { delay: 5000 } },
      ],
    });
    const r = await result;
    expect(r.steps.flaky?.status).toBe("succeeded");
    const retries = events.filter((e) => e.type === "step.retry");
    expect(retries.map((e) => (e.type === "step.retry" ? [e.attempt, e.delayMs] : []))).toEqual([
      [2, 1],
      [3, 2],
    ]);
    expect(r.steps.slow?.error?.message).toContain("timed out after 20 ms");
  });

  it("cancels on abort and resumes only what did not finish", async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const spec = {
      name: "cancel",
      steps: [
        {
          id: "each",
          for_each: [0, 1, 2, 3],
          max_parallel: 2,
          echo: { value: "${{ item }}", delay: "${{ item < 2 && 1 || 300 }}" },
        },
      ],
    };
    const { result } = run(
      spec,
      {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === "item.end" && e.index === 1) controller.abort();
        },
      },
      log,
    );
    const r = await result;
    expect(r.status).toBe("cancelled");
    const again = await run(spec, { resume: r.runDir }, log).result;
    expect(again.status).toBe("succeeded");
    expect(again.steps.each?.outputs).toEqual([0, 1, 2, 3].map((value) => ({ value })));
    // items 0 and 1 ran once; the interrupted ones ran again
    expect(log.filter((l) => l === "end each:0")).toHaveLength(1);
    expect(log.filter((l) => l === "end each:1")).toHaveLength(1);
  });
});
