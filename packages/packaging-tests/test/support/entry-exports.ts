import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import type { PublishedPackage } from "./published-packages.js";

/** One entry point of a package: an `exports` key with a `types` condition. */
export interface EntryPoint {
  /** The specifier a user writes, e.g. `@reelsmith/runner/kinds`. */
  specifier: string;
  /** Absolute path of the entry's declaration file. */
  typesFile: string;
}

/**
 * Every entry point of a package that has types, from its package.json `exports`.
 *
 * @example
 * entryPoints(runner).map((entry) => entry.specifier); // ["@reelsmith/runner", "@reelsmith/runner/kinds", …]
 */
export function entryPoints(entry: PublishedPackage): EntryPoint[] {
  const manifest = JSON.parse(readFileSync(path.join(entry.dir, "package.json"), "utf8")) as {
    exports: Record<string, string | { types?: string }>;
  };
  const points: EntryPoint[] = [];
  for (const [key, target] of Object.entries(manifest.exports)) {
    if (typeof target !== "object" || target.types === undefined) continue;
    const specifier = key === "." ? entry.name : `${entry.name}/${key.slice(2)}`;
    points.push({ specifier, typesFile: path.join(entry.dir, target.types) });
  }
  return points;
}

/**
 * The names each entry point exports, sorted, read from its built declarations with the
 * TypeScript compiler: `name` for a value (function, class, constant), `type Name` for a
 * type only. Throws when a declaration file is missing (build the package first).
 *
 * @example
 * exportedNames(entryPoints(runner)).get("@reelsmith/runner"); // ["runPipeline", "type RunEvent", …]
 */
export function exportedNames(points: EntryPoint[]): Map<string, string[]> {
  for (const point of points) {
    if (!existsSync(point.typesFile)) {
      throw new Error(`${point.typesFile} is missing: build the workspace first (pnpm build)`);
    }
  }
  const program = ts.createProgram(
    points.map((point) => point.typesFile),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      noEmit: true,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  const names = new Map<string, string[]>();
  for (const point of points) {
    const file = program.getSourceFile(point.typesFile);
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    if (moduleSymbol === undefined) throw new Error(`${point.typesFile} is not a module`);
    const listed = checker.getExportsOfModule(moduleSymbol).map((symbol) => {
      const target =
        symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return target.flags & ts.SymbolFlags.Value ? symbol.name : `type ${symbol.name}`;
    });
    names.set(point.specifier, listed.sort(byName));
  }
  return names;
}

function byName(left: string, right: string): number {
  const a = left.replace(/^type /, "");
  const b = right.replace(/^type /, "");
  return a < b ? -1 : a > b ? 1 : 0;
}
