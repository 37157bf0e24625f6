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

describe("an inputs file that does not parse", () => {
  it("is named at its file:line:column with the parser's one line, and what the file should hold", async () => {
    const folder = dir;
    await writeFile(path.join(folder, "bad.yaml"), "scenes: 2\nstory: [a\n");
    await writeFile(path.join(folder, "trailing.json"), '{\n  "scenes": 2,\n}\n');
    const yamlError = await readInputsFile("bad.yaml", folder).catch((error) => error);
    expect(yamlError).toMatchObject({ exitCode: 2, code: "inputs_file_invalid" });
    expect(yamlError.message).toMatch(/^bad\.yaml:3:1: the inputs file is not valid YAML: /);
    expect(yamlError.message).not.toContain("\n");
    expect(yamlError.hint).toContain("one object of input names to values");
    const jsonError = await readInputsFile("trailing.json", folder).catch((error) => error);
    expect(jsonError.message).toMatch(
      /^trailing\.json(:\d+:\d+)?: the inputs file is not valid JSON: /,
    );
    const missing = await readInputsFile("missing.yaml", folder).catch((error) => error);
    expect(missing.message).toBe(
      `cannot read the inputs file missing.yaml: no such file (${path.join(folder, "missing.yaml")})`,
    );
  });
});
