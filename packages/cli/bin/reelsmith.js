#!/usr/bin/env node
// The `reelsmith` command. This small launcher is committed (not built) so that installing the
// workspace can link it before `pnpm build` has made dist/; it starts the built CLI, or says in
// one line what to do when there is none yet.
import { existsSync } from "node:fs";

const cli = new URL("../dist/bin.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    "reelsmith is not built yet: run `pnpm build` first (in a clone: npx -y pnpm@10.34.8 build)\n",
  );
  process.exit(1);
}
await import(cli.href);
