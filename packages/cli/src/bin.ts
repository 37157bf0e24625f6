#!/usr/bin/env node
import { existsSync } from "node:fs";

// The build bundles main.js and what it imports into start-bundle.js (scripts/bundle-start.mjs):
// one module to read at start-up instead of about 50. Without it (a tsc-only build), the modules.
const bundle = new URL("./start-bundle.js", import.meta.url);
const { runMain }: typeof import("./main.js") = await import(
  existsSync(bundle) ? bundle.href : "./main.js"
);

await runMain(process.argv);
