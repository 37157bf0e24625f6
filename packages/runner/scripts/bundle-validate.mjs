// Writes dist/pipeline/validate-bundle.js (run after `tsc -b`): `@reelsmith/runner/validate`
// as one module, with the expression parser, YAML and core's request checks inside it. A
// process that only validates (the CLI's `validate`, and every command before it runs)
// then loads one file instead of about 150 modules. What validation loads only on demand
// stays outside: each kind's schema and run code (its dynamic imports are kept, pointing at
// the modules beside it in dist/) and ajv's compiler. The bundle sits beside the module it
// replaces, so the files it reads relative to itself (the pipeline schema, the build-time
// validators) are found where they are.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const outfile = path.join(dist, "pipeline", "validate-bundle.js");

/** Dynamic imports stay imports of the built modules (relative to the bundle's folder). */
const keepLazyImports = {
  name: "keep-lazy-imports",
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined;
      if (!args.path.startsWith(".")) return { path: args.path, external: true };
      let relative = path.relative(path.dirname(outfile), path.resolve(args.resolveDir, args.path));
      if (!relative.startsWith(".")) relative = `./${relative}`;
      return { path: relative.split(path.sep).join("/"), external: true };
    });
  },
};

await build({
  entryPoints: [path.join(dist, "pipeline", "validate-entry.js")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["ajv"],
  plugins: [keepLazyImports],
  // The CommonJS packages inside (yaml) call require: give them Node's.
  banner: {
    js: 'import { createRequire as createBundleRequire } from "node:module"; const require = createBundleRequire(import.meta.url);',
  },
  legalComments: "none",
  logLevel: "warning",
});
