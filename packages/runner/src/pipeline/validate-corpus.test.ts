import { readdirSync, readFileSync } from "node:fs";
import {
  imageModels,
  speechModels,
  transcriptionModels,
  videoModels,
} from "@reelsmith/simulator/catalog";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "./diagnostic.js";
import { validatePipeline } from "./validate-pipeline.js";

const fixtures = new URL("./__fixtures__/", import.meta.url);
// The simulator's other models, as the CLI gives them for the built-in simulator.
const catalogs = {
  video_models: videoModels,
  image_models: imageModels,
  speech_models: speechModels,
  transcription_models: transcriptionModels,
};
// Fixtures ending .txt/.bin are not valid YAML on purpose; the extension keeps them away from the formatter.
const list = (folder: string) =>
  readdirSync(new URL(folder, fixtures)).filter((name) => /\.(yaml|txt|bin)$/.test(name));

/** `# expect: LINE:COLUMN message fragment` lines at the top of each invalid fixture. */
function expectations(file: URL): { line: number; column: number; fragment: string }[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^# expect: (\d+):(\d+) (.+)$/gm)].map((match) => ({
    line: Number(match[1]),
    column: Number(match[2]),
    fragment: (match[3] ?? "").trim(),
  }));
}

describe("validate corpus: invalid pipelines", () => {
  for (const name of list("invalid")) {
    it(name, async () => {
      const file = new URL(`invalid/${name}`, fixtures);
      const expected = expectations(file);
      expect(expected.length, "fixture declares its expected problems").toBeGreaterThan(0);
      // The fixtures name the simulator's models, whose limits the checks know.
      const { pipeline, diagnostics } = await validatePipeline(file.pathname, {
        catalogs,
      });
      const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error");
      const shown = errors.map(formatDiagnostic).join("\n");
      expect(pipeline).toBeUndefined();
      for (const { line, column, fragment } of expected) {
        const match = errors.find(
          (d) => d.line === line && d.column === column && d.message.includes(fragment),
        );
        expect(match, `expected ${line}:${column} "${fragment}" in:\n${shown}`).toBeDefined();
        expect(formatDiagnostic(match ?? errors[0]!)).toContain(
          `${name}:${line}:${column}: error: `,
        );
      }
      expect(errors.length, `exactly the expected errors, got:\n${shown}`).toBe(expected.length);
    });
  }
});

describe("validate corpus: valid pipelines", () => {
  for (const name of list("valid")) {
    it(name, async () => {
      const { pipeline, diagnostics } = await validatePipeline(
        new URL(`valid/${name}`, fixtures).pathname,
        { catalogs },
      );
      expect(diagnostics.map(formatDiagnostic)).toEqual([]);
      expect(pipeline?.spec.steps.length).toBeGreaterThan(0);
    });
  }
});
