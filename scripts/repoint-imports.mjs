// Re-points named imports of a package's root to the subpath that now exports each name,
// after names moved off the root (`node scripts/repoint-imports.mjs runner`). Reads the
// names each entry point exports from the package's built declarations (build it first),
// rewrites `import { … } from "@reelsmith/<package>"` (and `export { … } from`) in every
// tracked .ts/.tsx/.mts/.js/.mjs/.md file, and relative imports of the package's own
// `src/index.js` in its tests. Names no entry point exports are left where they are, for the
// compiler to report. Run biome on the changed files afterwards.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const folder = process.argv[2];
if (!folder) throw new Error("usage: node scripts/repoint-imports.mjs <package folder>");
const root = path.resolve(import.meta.dirname, "..");
const packageDir = path.join(root, "packages", folder);
const manifest = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"));

const entries = Object.entries(manifest.exports)
  .filter(([, target]) => typeof target === "object" && target.types)
  .map(([key, target]) => ({
    specifier: key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`,
    typesFile: path.join(packageDir, target.types),
    sourceFile: path.join(
      packageDir,
      target.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"),
    ),
    internal: key === "./internal",
  }));
const program = ts.createProgram(
  entries.map((entry) => entry.typesFile),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  },
);
const checker = program.getTypeChecker();
const rootNames = new Set();
/** name -> the entry that exports it (the root first, `/internal` last). */
const home = new Map();
const ordered = [...entries].sort((a, b) => Number(a.internal) - Number(b.internal));
for (const entry of ordered) {
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(entry.typesFile));
  for (const exported of checker.getExportsOfModule(symbol)) {
    if (entry.specifier === manifest.name) rootNames.add(exported.name);
    if (!home.has(exported.name)) home.set(exported.name, entry);
  }
}

const files = execFileSync("git", ["ls-files", "*.ts", "*.tsx", "*.mts", "*.js", "*.mjs", "*.md"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => file !== "" && !file.startsWith("scripts/"));

const declaration = /(import|export)(\s+type)?\s*\{([^}]*)\}\s*from\s*(["'])([^"']+)\4;?/g;
// `const { a, b } = await import("…")`: re-pointed when every name has the same new home.
const dynamicImport = /\{([^{}]*)\}\s*=\s*await\s+import\((["'])([^"']+)\2\)/g;
let changed = 0;
for (const file of files) {
  const absolute = path.join(root, file);
  const text = readFileSync(absolute, "utf8");
  const next = text
    .replace(dynamicImport, (whole, list, quote, from) => {
      const targetFor = matcher(absolute, from);
      if (!targetFor) return whole;
      const names = list
        .split(",")
        .map((item) => item.trim().split(/\s*:\s*/)[0])
        .filter(Boolean);
      const targets = new Set(
        names.map((name) =>
          rootNames.has(name) ? from : home.get(name) ? targetFor(home.get(name)) : from,
        ),
      );
      if (targets.size !== 1 || targets.has(from)) return whole;
      return whole.replace(`${quote}${from}${quote}`, `${quote}${[...targets][0]}${quote}`);
    })
    .replace(declaration, (whole, verb, typeOnly, list, quote, from) => {
      const targetFor = matcher(absolute, from);
      if (!targetFor) return whole;
      const groups = new Map();
      for (const raw of list.split(",")) {
        const item = raw.trim();
        if (item === "") continue;
        const name = item
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0]
          .trim();
        const entry = rootNames.has(name) ? undefined : home.get(name);
        const to = entry ? targetFor(entry) : from;
        if (!groups.has(to)) groups.set(to, []);
        groups.get(to).push(item);
      }
      if (groups.size === 1 && groups.has(from)) return whole;
      return [...groups]
        .map(([to, items]) => {
          const single = `${verb}${typeOnly ?? ""} { ${items.join(", ")} } from ${quote}${to}${quote};`;
          if (single.length <= 100) return single;
          return `${verb}${typeOnly ?? ""} {\n  ${items.join(",\n  ")},\n} from ${quote}${to}${quote};`;
        })
        .join("\n");
    });
  if (next !== text) {
    writeFileSync(absolute, next);
    changed += 1;
    console.log(file);
  }
}
console.error(`${changed} files re-pointed`);

/** How to name an entry from this file, if `from` is the package's root; else undefined. */
function matcher(file, from) {
  if (from === manifest.name) return (entry) => entry.specifier;
  if (!from.startsWith(".") || !file.startsWith(packageDir + path.sep)) return undefined;
  const resolved = path.resolve(path.dirname(file), from);
  if (resolved !== path.join(packageDir, "src", "index.js")) return undefined;
  return (entry) => {
    const relative = path.relative(path.dirname(file), entry.sourceFile).replace(/\.ts$/, ".js");
    return relative.startsWith(".") ? relative : `./${relative}`;
  };
}
