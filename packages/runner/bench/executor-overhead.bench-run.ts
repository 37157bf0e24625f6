import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { echoKind } from "../test/helpers/pure-kinds.js";

it("executor overhead: 200 pure steps, no service", async () => {
  const root = mkdtempSync(join(tmpdir(), "rs-ov-"));
  const pipeline = {
    name: "ov",
    steps: Array.from({ length: 200 }, (_, n) => ({ id: `s${n}`, echo: { value: `Step ${n}` } })),
  };
  for (let i = 0; i < 4; i++) {
    const t = performance.now();
    await runPipeline(pipeline, {
      client: {},
      stepKinds: [echoKind()],
      cache: false,
      runsRoot: join(root, "runs"),
    });
    console.log("run ms", Math.round(performance.now() - t));
  }
});
