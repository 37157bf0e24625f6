// Lists the functions of the packages' sources longer than a limit (120 lines unless given),
// longest first: `node scripts/long-functions.mjs [limit]`. A function's length is its span
// in lines, from its first line to its closing brace, nested functions included. Tests
// (`*.test.ts`, `test/`) are left out. `packages/packaging-tests/test/function-length.test.ts`
// holds every package to the limit.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The root of the workspace. */
export const workspaceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Every function longer than `limit` lines in the TypeScript sources of the packages (and the
 * GitHub action): `{ file, line, name, lines }`, longest first.
 * @example longFunctions(120)[0]; // { file: "packages/x/src/y.ts", line: 12, name: "startX", lines: 140 }
 */
export function longFunctions(limit = 120) {
  const files = execFileSync(
    "git",
    [
      "ls-files",
      "packages/*/src/**.ts",
      "packages/*/src/*.ts",
      "packages/*/src/**.tsx",
      "action/src/**.ts",
    ],
    {
      cwd: workspaceRoot,
      encoding: "utf8",
    },
  )
    .split("\n")
    .filter((file) => file !== "" && !/\.test\.tsx?$/.test(file) && !file.endsWith(".d.ts"));
  const found = [];
  for (const file of [...new Set(files)]) {
    const text = readFileSync(path.join(workspaceRoot, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = last - first + 1;
        if (lines > limit) found.push({ file, line: first + 1, name: nameOf(node, source), lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

function nameOf(node, source) {
  if (node.name) {
    const own = node.name.getText(source);
    const owner = node.parent && ts.isClassLike(node.parent) && node.parent.name;
    return owner ? `${owner.getText(source)}.${own}` : own;
  }
  if (ts.isConstructorDeclaration(node))
    return `${node.parent.name?.getText(source) ?? "class"}.constructor`;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return "(anonymous)";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const limit = Number(process.argv[2] ?? 120);
  for (const entry of longFunctions(limit)) {
    console.log(`${String(entry.lines).padStart(4)}  ${entry.name}  ${entry.file}:${entry.line}`);
  }
}
