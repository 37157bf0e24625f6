import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatherInputs, parseInputPairs, readInputsFile } from "./inputs.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "reelsmith-inputs-"));
  await writeFile(path.join(dir, "in.yaml"), "story: a fox\nscenes: 2\n");
  await writeFile(path.join(dir, "in.json"), '{"scenes": 5}');
  await writeFile(path.join(dir, "list.json"), "[1]");
  await writeFile(path.join(dir, "proto.json"), '{"__proto__": {"polluted": true}}');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("inputs", () => {
  it("parses key=value pairs, keeping further '=' in the value", () => {
    expect(parseInputPairs(["scenes=3", "story=a=b", "empty="])).toEqual({
      scenes: "3",
      story: "a=b",
      empty: "",
    });
    expect(() => parseInputPairs(["novalue"])).toThrow(/key=value/);
    expect(() => parseInputPairs(["__proto__=1"])).toThrow(/not allowed/);
  });

  it("reads YAML and JSON files and lets --input override them", async () => {
    expect(await readInputsFile("in.yaml", dir)).toEqual({ story: "a fox", scenes: 2 });
    expect(await gatherInputs({ inputs: "in.json", input: ["scenes=7"] }, dir)).toEqual({
      scenes: "7",
    });
  });

  it("refuses missing files, non-objects and prototype keys with a usage error", async () => {
    await expect(readInputsFile("missing.json", dir)).rejects.toMatchObject({ exitCode: 2 });
    await expect(readInputsFile("list.json", dir)).rejects.toThrow(/must hold an object/);
    await expect(readInputsFile("proto.json", dir)).rejects.toThrow(/not allowed/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
