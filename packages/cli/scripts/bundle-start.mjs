// Writes dist/start-bundle.js and its dist/start-*.js chunks (run after `tsc -b`): what every
// `reelsmith` command loads before it runs (main, the program, each command's declaration,
// core's errors and catalog) as one module, and the provider profile's finder and the
// simulator's model lists (which `validate` and every command reach next) as chunks loaded
// on use, so a start-up reads a few files instead of about 150. The other packages stay
// imports (commander, the runner's validation bundle, the client, media, …), and a command's
// dynamic imports stay imports of the built modules beside it in dist/ (the work it loads on
// use). A module inside that is reached again from outside has two copies: none holds shared
// state, and errors are told apart by `isInstance` (a Symbol.for marker), never instanceof.
// Everything lands in dist/ itself, so the paths read relative to a module hold.
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/** Imported statically by the commands' declarations: inside the bundle. */
const inside = new Set(["@reelsmith/core/errors", "@reelsmith/core/catalog"]);
/** Imported dynamically on the way to every command's work: chunks of the bundle. */
const chunks = new Set(["@reelsmith/runner/profile", "@reelsmith/simulator/catalog"]);

/** Other packages stay imports; relative dynamic imports stay imports of the built modules. */
const keepImports = {
  name: "keep-imports",
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      if (!args.path.startsWith(".")) {
        if (args.kind === "import-statement" && inside.has(args.path)) return undefined;
        if (args.kind === "dynamic-import" && chunks.has(args.path)) return undefined;
        return { path: args.path, external: true };
      }
      if (args.kind !== "dynamic-import") return undefined;
      let relative = path.relative(dist, path.resolve(args.resolveDir, args.path));
      // A chunk's own dynamic import (another package's module): a chunk too, never a path
      // into a sibling package's dist/, which only some install layouts would have.
      if (relative.startsWith("..")) return undefined;
      if (!relative.startsWith(".")) relative = `./${relative}`;
      return { path: relative.split(path.sep).join("/"), external: true };
    });
  },
};

// The chunks' names carry a hash: remove the last build's.
for (const name of readdirSync(dist)) {
  if (/^start-.*\.js$/.test(name)) rmSync(path.join(dist, name));
}
await build({
  entryPoints: [path.join(dist, "main.js")],
  outdir: dist,
  entryNames: "start-bundle",
  chunkNames: "start-[name]-[hash]",
  splitting: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  plugins: [keepImports],
  legalComments: "none",
  logLevel: "warning",
});
