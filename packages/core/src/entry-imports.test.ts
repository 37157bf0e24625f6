import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

/** Every package (bare specifier) the module graph from `entry` reaches, following relative imports. */
function packagesReached(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/g)) {
      const statement = match[0];
      const specifier = match[1] ?? "";
      // Type-only imports vanish at run time.
      if (/^\s*(?:import|export)\s+type\s/.test(statement.trim())) continue;
      if (specifier.startsWith("."))
        visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else if (!specifier.startsWith("node:")) packages.add(specifier);
    }
  };
  visit(resolve(here, entry));
  return packages;
}

describe("light entry points", () => {
  it("@reelsmith/core/profile, /catalog and /errors load no HTTP client (only ajv and the edit distance of 'did you mean')", () => {
    expect([...packagesReached("profile.ts")].sort()).toEqual(["ajv", "fastest-levenshtein"]);
    expect([...packagesReached("catalog.ts")]).toEqual([]);
    expect([...packagesReached("errors/index.ts")]).toEqual([]);
    // The check can fail: the main entry does reach undici.
    expect(packagesReached("index.ts").has("undici")).toBe(true);
  });
});
