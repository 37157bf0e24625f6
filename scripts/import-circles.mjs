// Lists the import circles of the packages' sources: files that import each other in a loop,
// through static imports, `export … from` and `import("…")` with a literal path, type-only
// ones included: `node scripts/import-circles.mjs`. Tests (`*.test.ts`) and fixtures
// (`__fixtures__/`) are left out. `packages/packaging-tests/test/import-circles.test.ts` holds
// every package to none.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const workspaceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The TypeScript sources of the packages (and the GitHub action), workspace-relative. */
export function sourceFiles() {
  return execFileSync(
    "git",
    ["ls-files", "packages/*/src/**.ts", "packages/*/src/**.tsx", "action/src/**.ts"],
    { cwd: workspaceRoot, encoding: "utf8" },
  )
    .split("\n")
    .filter(
      (file) =>
        file !== "" &&
        !/\.test\.tsx?$/.test(file) &&
        !file.endsWith(".d.ts") &&
        !file.includes("/__fixtures__/"),
    );
}

/**
 * The import circles among `files` (workspace-relative paths; `read` gives a file's text):
 * each circle is its files, sorted, with one loop through them (`a -> b -> a`). A relative
 * import of `./x.js` is read as `./x.ts`, `./x.tsx` or `./x/index.ts`, whichever is a file.
 * @example importCircles()[0]; // { files: ["packages/x/src/a.ts", "packages/x/src/b.ts"], loop: [...] }
 */
export function importCircles(
  files = sourceFiles(),
  read = (file) => readFileSync(path.join(workspaceRoot, file), "utf8"),
) {
  const known = new Set(files);
  const imports = new Map(files.map((file) => [file, importedFiles(file, read(file), known)]));
  return stronglyConnected(files, imports)
    .filter((group) => group.length > 1 || imports.get(group[0])?.includes(group[0]))
    .map((group) => ({ files: [...group].sort(), loop: loopThrough(group, imports) }));
}

function importedFiles(file, text, known) {
  const found = [];
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith(".")) continue;
    const base = path.posix.join(path.posix.dirname(file), fileName).replace(/\.(m?js|jsx)$/, "");
    const target = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((name) =>
      known.has(name),
    );
    if (target && !found.includes(target)) found.push(target);
  }
  return found;
}

/** Tarjan's strongly connected components, iteratively (no recursion limit on deep trees). */
function stronglyConnected(files, imports) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [file, position] = frame;
      if (position === 0) {
        index.set(file, next);
        low.set(file, next);
        next++;
        stack.push(file);
        onStack.add(file);
      }
      const targets = imports.get(file) ?? [];
      if (position < targets.length) {
        frame[1]++;
        const target = targets[position];
        if (!index.has(target)) work.push([target, 0]);
        else if (onStack.has(target)) low.set(file, Math.min(low.get(file), index.get(target)));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0]), low.get(file)));
      if (low.get(file) === index.get(file)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== file);
        groups.push(group);
      }
    }
  }
  return groups;
}

/** One loop through a circle, from its first file back to it (a breadth-first shortest path). */
function loopThrough(group, imports) {
  const members = new Set(group);
  const first = [...group].sort()[0];
  const cameFrom = new Map();
  const queue = [first];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const target of imports.get(file) ?? []) {
      if (!members.has(target)) continue;
      if (target === first) {
        const loop = [first];
        for (let step = file; step !== first; step = cameFrom.get(step)) loop.splice(1, 0, step);
        return [...loop, first];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [first];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const circles = importCircles();
  for (const circle of circles) {
    console.log(`${circle.files.length} files: ${circle.loop.join(" -> ")}`);
  }
  if (circles.length === 0) console.log("no import circles");
}
