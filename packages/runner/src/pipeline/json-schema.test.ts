import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { pipelineJsonSchema } from "./json-schema.js";

describe("published pipeline schema", () => {
  it("is the one generated from the step kinds' schemas (run `pnpm generate:schema` after a change)", async () => {
    const committed = JSON.parse(
      readFileSync(new URL("../../schema/pipeline.schema.json", import.meta.url), "utf8"),
    );
    expect(committed).toEqual(await pipelineJsonSchema());
  });

  it("is a schema a plain ajv accepts and uses", async () => {
    const validate = new Ajv({ strict: false }).compile(await pipelineJsonSchema());
    expect(validate({ name: "a", steps: [{ id: "s", chat: { prompt: "hi" } }] })).toBe(true);
    expect(
      validate({ name: "a", steps: [{ id: "s", chat: { prompt: "hi" }, video: { prompt: "x" } }] }),
    ).toBe(false);
    expect(
      validate({
        name: "a",
        steps: [{ id: "s", ffmpeg: { trim: "a.mp4", fit: "b.mp4", output: "c.mp4" } }],
      }),
    ).toBe(false);
  });
});
