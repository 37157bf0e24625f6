// A step kind written as its author would, against the installed `@reelsmith/runner/kinds`,
// run by the installed `@reelsmith/runner` beside the built-in kinds. Prints the run's status
// and outputs and the kinds by name as its last line (JSON).
import { runPipeline } from "@reelsmith/runner";
import {
  builtInStepKinds,
  defineStepKind,
  kindsByName,
  objectOf,
  STRING,
} from "@reelsmith/runner/kinds";
import { Type } from "@sinclair/typebox";

const shoutKind = defineStepKind({
  kind: "shout",
  schema: Type.Object({ text: Type.String() }, { additionalProperties: false }),
  outputs: () => objectOf({ text: STRING }),
  run: async (spec) => ({ text: spec.text.toUpperCase() }),
});
const stepKinds = [...builtInStepKinds, shoutKind];
const result = await runPipeline(
  {
    name: "kinds",
    steps: [{ id: "loud", shout: { text: "a paper boat" } }],
    outputs: { text: "${{ steps.loud.outputs.text }}" },
  },
  { stepKinds, runsRoot: "kind-runs" },
);
console.log(
  JSON.stringify({
    status: result.status,
    outputs: result.outputs,
    kinds: [...kindsByName(stepKinds).keys()],
  }),
);
