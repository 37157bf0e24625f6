import { describe, expect, it } from "vitest";
import { importCircles, sourceFiles } from "../../../scripts/import-circles.mjs";

// No package's sources import each other in a loop: a layer imports only the ones below it
// (packages/core/ARCHITECTURE.md, "Layers"). `node scripts/import-circles.mjs` lists circles
// with one loop through each.
describe("import circles", () => {
  it("finds a circle through a type-only import and an index", () => {
    const sources: Record<string, string> = {
      "packages/x/src/a.ts": 'import { b } from "./b/index.js";\nexport const a = b;',
      "packages/x/src/b/index.ts": 'export { b } from "./b.js";',
      "packages/x/src/b/b.ts": 'import type { A } from "../a.js";\nexport const b = 1;',
      "packages/x/src/c.ts": 'import { a } from "./a.js";',
    };
    const circles = importCircles(Object.keys(sources), (file) => sources[file] ?? "");
    expect(circles).toEqual([
      {
        files: ["packages/x/src/a.ts", "packages/x/src/b/b.ts", "packages/x/src/b/index.ts"],
        loop: [
          "packages/x/src/a.ts",
          "packages/x/src/b/index.ts",
          "packages/x/src/b/b.ts",
          "packages/x/src/a.ts",
        ],
      },
    ]);
  });

  it("holds every package's sources to no circle", () => {
    expect(sourceFiles().length).toBeGreaterThan(100);
    const circles = importCircles().map(
      (circle) => `${circle.files.length} files: ${circle.loop.join(" -> ")}`,
    );
    expect(circles, "move what the files share below them (a leaf module)").toEqual([]);
  });
});
