// `pnpm bench`: runs every measure of the performance goals, each in its own process, and
// prints one table. Ratios are against baselines measured in the same run (alternating
// rounds), so a noisy machine moves both sides. Run after `pnpm build`.
//
//   node bench/run-all.mjs            all measures
//   node bench/run-all.mjs P1 P6      only these
//   node bench/run-all.mjs --smoke    each once at a tiny size (does it still run?)
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { measures, smoke } from "./lib.mjs";

const only = process.argv
  .slice(2)
  .filter((argument) => !argument.startsWith("--"))
  .map((a) => a.toUpperCase());
const chosen = measures.filter((m) => only.length === 0 || only.includes(m.id));

function run(script) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (piece) => {
      stdout += piece;
    });
    child.stderr.on("data", (piece) => {
      stderr += piece;
    });
    child.on("close", (code) => {
      const rows = stdout
        .split("\n")
        .filter((line) => line.startsWith("BENCH "))
        .map((line) => JSON.parse(line.slice(6)));
      resolve({ code, rows, stderr });
    });
  });
}

const format = (row) => [
  row.id,
  row.measure,
  row.ours,
  row.baseline,
  row.ratio === null ? "—" : `${row.ratio.toFixed(2)}×`,
  row.goal === null ? "—" : `${row.lowerIsBetter === false ? "≥" : "≤"} ${row.goal}×`,
  row.met === null ? "—" : row.met ? "yes" : "NO",
];

const table = [["#", "measure", "ours", "baseline", "ratio", "goal", "met?"]];
const started = Date.now();
for (const measure of chosen) {
  process.stderr.write(`${measure.id} (${measure.script})…\n`);
  const { code, rows, stderr } = await run(measure.script);
  if (code !== 0 || rows.length === 0) {
    // A script that no longer runs fails `pnpm bench` too, after the table.
    process.exitCode = 1;
    table.push([
      measure.id,
      `failed (exit ${code}): ${stderr.trim().split("\n").pop() ?? ""}`,
      "",
      "",
      "",
      "",
      "NO",
    ]);
    continue;
  }
  for (const row of rows) table.push(format(row));
}
const widths = table[0].map((_, column) =>
  Math.max(...table.map((row) => String(row[column]).length)),
);
const line = (row) =>
  `| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(" | ")} |`;
console.log(line(table[0]));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const row of table.slice(1)) console.log(line(row));
console.log(
  `\nnode ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
if (smoke)
  console.log(
    "smoke run (tiny sizes, one round): it shows the scripts run; the numbers mean nothing",
  );
