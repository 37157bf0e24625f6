// P6: start-up of the CLI — `reelsmith --version` and `reelsmith validate
// examples/storyboard/pipeline.yaml` — vs `node -e 0`, whole processes from spawn to exit,
// alternating pairs, median of the per-pair ratios.
import { alternate, benchOptions, report, root, timeProcess } from "./lib.mjs";

const { rounds } = benchOptions({ rounds: 11 }, { rounds: 1 });
const bin = `${root}packages/cli/dist/bin.js`;
const node = process.execPath;
const bare = () => timeProcess(node, ["-e", "0"], { cwd: root });

const version = await alternate(
  rounds,
  () => timeProcess(node, [bin, "--version"], { cwd: root }),
  bare,
);
const validate = await alternate(
  rounds,
  () => timeProcess(node, [bin, "validate", "examples/storyboard/pipeline.yaml"], { cwd: root }),
  bare,
);
report([
  {
    id: "P6a",
    measure: "reelsmith --version vs node -e 0",
    ours: `${version.ours.toFixed(0)} ms`,
    baseline: `${version.baseline.toFixed(0)} ms`,
    ratio: version.ratio,
    goal: 2,
  },
  {
    id: "P6b",
    measure: "reelsmith validate storyboard vs node -e 0",
    ours: `${validate.ours.toFixed(0)} ms`,
    baseline: `${validate.baseline.toFixed(0)} ms`,
    ratio: validate.ratio,
    goal: 3,
  },
]);
