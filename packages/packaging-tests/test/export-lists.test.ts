import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { entryPoints, exportedNames } from "./support/entry-exports.js";
import { publishedPackages } from "./support/published-packages.js";

// Each entry point's export list is checked in, one name a line, under `test/__exports__/`.
// A name added to or removed from a public face fails here until the list is updated on
// purpose: `UPDATE_EXPORT_LISTS=1 npx vitest run test/export-lists.test.ts`, then review the diff.
const listsDir = fileURLToPath(new URL("./__exports__/", import.meta.url));
const updating = process.env.UPDATE_EXPORT_LISTS === "1";

function listFileOf(specifier: string): string {
  return path.join(listsDir, `${specifier.replace(/^@reelsmith\//, "").replaceAll("/", "__")}.txt`);
}

function readList(file: string): string[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "");
  } catch {
    return [];
  }
}

function listDiff(pinned: string[], actual: string[]): string {
  const added = actual.filter((name) => !pinned.includes(name)).map((name) => `+ ${name}`);
  const removed = pinned.filter((name) => !actual.includes(name)).map((name) => `- ${name}`);
  return [...added, ...removed].join("\n");
}

describe("each entry point's export list is pinned", () => {
  for (const entry of publishedPackages()) {
    it(`${entry.name}: every entry point exports exactly its checked-in list`, () => {
      const names = exportedNames(entryPoints(entry));
      const problems: string[] = [];
      for (const [specifier, actual] of names) {
        const file = listFileOf(specifier);
        const pinned = readList(file);
        if (updating) writeFileSync(file, `${actual.join("\n")}\n`);
        else if (listDiff(pinned, actual) !== "") {
          problems.push(
            `${specifier} (${path.relative(process.cwd(), file)}):\n${listDiff(pinned, actual)}`,
          );
        }
      }
      expect(names.size).toBeGreaterThan(0);
      expect(
        problems,
        `A public export list changed. If that is deliberate, run UPDATE_EXPORT_LISTS=1 npx vitest run test/export-lists.test.ts in packages/packaging-tests and commit the lists:\n${problems.join("\n\n")}`,
      ).toEqual([]);
    });
  }
});
