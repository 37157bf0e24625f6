import {
  looksLikeSecretKey,
  looksLikeSecretValue,
  maskSecretValues,
} from "@reelsmith/core/profile";
import { describe, expect, it } from "vitest";
import { LineCounter, parseAllDocuments } from "yaml";
import { createSecretMask } from "./secret-mask.js";

const SECRET = "sk-test-SECRET-0123456789abcdef";
const tests = {
  isSecretKey: looksLikeSecretKey,
  isSecretValue: looksLikeSecretValue,
  maskText: maskSecretValues,
};

function masked(source: string): string[] {
  const lines = new LineCounter();
  const documents = parseAllDocuments(source, { lineCounter: lines });
  const list = Array.isArray(documents) ? documents : [];
  const lineText = createSecretMask(source, list, lines, tests);
  return source.split("\n").map((_, index) => lineText(index + 1));
}

describe("createSecretMask", () => {
  it("hides everything under a key-like name at any depth, flow or block", () => {
    const text = [
      "video_models:",
      "  m:",
      `    notes: { deeper: { token: "${SECRET}" }, kept: yes }`,
      "    credentials:",
      `      user: me`,
      `      pass: "${SECRET}"`,
      "    seconds: [4, 8]",
      "",
    ].join("\n");
    const lines = masked(text);
    expect(lines.join("\n")).not.toContain(SECRET);
    expect(lines[2]).toBe("    notes: { deeper: { token: <redacted> }, kept: yes }");
    expect(lines[3]).toBe("    credentials:");
    expect(lines[4]).toBe("      <redacted>");
    expect(lines[6]).toBe("    seconds: [4, 8]");
  });

  it("hides a value that looks like a key wherever it is, and bearer or passwd lines", () => {
    const lines = masked(
      [
        "service:",
        `  api_key_env: [MY_KEY, ${SECRET}]`,
        "  bearer: abc",
        "  passwd: hunter2",
        `  ${SECRET}: x`,
        "",
      ].join("\n"),
    );
    expect(lines.slice(1, 5)).toEqual([
      "  api_key_env: [MY_KEY, <redacted>]",
      "  bearer: <redacted>",
      "  passwd: <redacted>",
      "  <redacted>: x",
    ]);
  });

  it("masks a text YAML could not parse by name and by shape", () => {
    const lines = masked(`service:\n  token: "unclosed ${SECRET}\n  notes: [${SECRET}\n`);
    expect(lines.join("\n")).not.toContain(SECRET);
  });
});
