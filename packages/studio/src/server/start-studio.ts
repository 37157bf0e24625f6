import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { userInfo } from "node:os";
import { resolve } from "node:path";
import type { Coordinator } from "@reelsmith/distributed";
import { readRun } from "@reelsmith/report";
import {
  buildModel,
  makeThumbnails,
  PAGE_SCRIPT,
  type ReportModel,
  STYLES,
} from "@reelsmith/report/page";
import { BadActionError, parseAction } from "../actions/parse-action.js";
import { createSessions, StudioActionError } from "../actions/sessions.js";
import type { StudioHost } from "../actions/studio-host.js";
import type { createDatabaseRuns } from "../database/database-runs.js";
import { renderBatchPage } from "../pages/render-batches.js";
import { renderRunPage, renderRunView } from "../pages/render-run-page.js";
import { renderRunsList, renderRunsTable } from "../pages/render-runs-list.js";
import { STUDIO_SCRIPT } from "../pages/studio-script.js";
import { STUDIO_STYLES } from "../pages/studio-styles.js";
import { listBatches, readBatchSummary } from "../runs/list-batches.js";
import { isDatabaseMirror, listRuns, runsStamp, sortRuns } from "../runs/list-runs.js";
import { createToken, isToken, tokenCookie, tokenProof } from "../security/access-token.js";
import { isRunName, ROW_SEPARATOR, runDirectory, runFilePath } from "../security/safe-path.js";
import { allowedHost, sameOrigin } from "../security/same-origin.js";
import { streamDatabaseRunEvents, streamRunEvents } from "./live-events.js";
import { readJsonBody } from "./read-body.js";
import { sendFile } from "./send-file.js";

/** Options of {@link startStudio}. */
export interface StudioOptions {
  /** The directory whose run directories the studio shows (default "runs"). */
  runsDir?: string;
  /** Where it listens (default 127.0.0.1; another address reaches beyond this machine). */
  host?: string;
  /** Port (default 0: any free one). */
  port?: number;
  /** The token every request must carry (default: a new random one). */
  token?: string;
  /** Opens the service a session of a run goes on with (see {@link StudioHost}). */
  studioHost: StudioHost;
  /** Who decides at a gate (default $REELSMITH_USER, else the OS user). */
  by?: string;
  /**
   * The shared database of runs made with `--database` (`connect(url)` of
   * `@reelsmith/distributed`; the caller closes it): its runs are listed beside the local
   * ones, drawn from its tables, and acted on through its API (the workers go on with them).
   */
  database?: Coordinator;
}

/** A running studio. */
export interface Studio {
  /** The studio's address, e.g. http://127.0.0.1:4173 */
  url: string;
  /** The address with `?token=…`: opening it once sets the cookie. */
  loginUrl: string;
  token: string;
  runsDir: string;
  /** Stops its sessions gently (waiting for them) and the server. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** The Content-Security-Policy of every response: only the studio's own files. */
export const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

const STATIC: Record<string, { type: string; body: string }> = {
  "/static/report.css": { type: "text/css; charset=utf-8", body: STYLES },
  "/static/studio.css": { type: "text/css; charset=utf-8", body: STUDIO_STYLES },
  "/static/report.js": { type: "text/javascript; charset=utf-8", body: PAGE_SCRIPT },
  "/static/studio.js": { type: "text/javascript; charset=utf-8", body: STUDIO_SCRIPT },
};

function decider(by: string | undefined): string {
  if (by) return by;
  if (process.env.REELSMITH_USER) return process.env.REELSMITH_USER;
  try {
    return userInfo().username;
  } catch {
    return "studio";
  }
}

/**
 * Starts the review studio: the runs list, each run's live page (the report's model and
 * renderers, redrawn from server-sent events), media of the runs, and the actions (approve,
 * reject, retake, pick, resume, cancel) as POSTs that call the runner's own functions. Every
 * request needs the token; every change the studio's own origin; no file outside the runs
 * directory is served.
 * @example
 * const studio = await startStudio({ runsDir: "runs", studioHost });
 * console.log(`open ${studio.loginUrl}`);
 */
export async function startStudio(options: StudioOptions): Promise<Studio> {
  const runsDir = resolve(options.runsDir ?? "runs");
  const token = options.token ?? createToken();
  const by = decider(options.by);
  const secrets = () =>
    [
      ...(options.studioHost.secrets ?? []),
      process.env.REELSMITH_API_KEY ?? "",
      process.env.OPENAI_API_KEY ?? "",
      token,
    ].filter((secret) => secret.length >= 8);
  const redact = (text: string) =>
    secrets().reduce((out, secret) => out.split(secret).join("[redacted]"), text);
  const sessions = createSessions(options.studioHost, () => {
    state.version += 1;
  });
  // Loaded only for a studio with a database (DBOS and pg are not needed otherwise).
  const databaseRuns = options.database
    ? (await import("../database/database-runs.js")).createDatabaseRuns(options.database, runsDir)
    : undefined;
  const host = options.host ?? "127.0.0.1";
  const hosts: string[] | "any" = LOOPBACK.has(host) ? [] : "any";
  const state: StudioState = {
    runsDir,
    token,
    by,
    redact,
    sessions,
    databaseRuns,
    hosts,
    version: 0,
  };

  const server = createServer((request, response) => {
    handle(state, request, response).catch((error: unknown) => {
      if (!response.headersSent)
        textSender(redact)(
          response,
          500,
          error instanceof Error ? error.message : "error",
          "text/plain",
        );
      else response.destroy();
    });
  });
  // Keep an idle connection longer than the browsers and clients that reuse one, so a request
  // never lands on a socket the studio is closing (Node's 5 s default races a reused one).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(options.port ?? 0, host, () => done());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  if (hosts !== "any") {
    for (const name of [shownHost, "localhost", "127.0.0.1", "[::1]"]) {
      hosts.push(`${name}:${port}`.toLowerCase());
    }
  }
  const url = `http://${shownHost}:${port}`;
  return {
    url,
    loginUrl: `${url}/?token=${token}`,
    token,
    runsDir,
    async close() {
      await sessions.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** What a studio's request handlers share: its places, token, sessions and database. */
interface StudioState {
  runsDir: string;
  token: string;
  by: string;
  redact: (text: string) => string;
  sessions: ReturnType<typeof createSessions>;
  databaseRuns: ReturnType<typeof createDatabaseRuns> | undefined;
  hosts: string[] | "any";
  /** Bumped by every change a session or an action makes (the live pages' stamp). */
  version: number;
}

/** Sends a whole answer, never cached, with the studio's secrets redacted. */
function textSender(redact: (text: string) => string) {
  return (
    response: ServerResponse,
    status: number,
    body: string,
    type = "text/html; charset=utf-8",
  ): void => {
    response.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
    response.end(redact(body));
  };
}

/** Sends a value as JSON, never cached, with the studio's secrets redacted. */
function jsonSender(redact: (text: string) => string) {
  const send = textSender(redact);
  return (response: ServerResponse, status: number, value: unknown): void =>
    send(response, status, JSON.stringify(value), "application/json; charset=utf-8");
}

async function runView(state: StudioState, name: string, dir: string) {
  const { sessions } = state;
  const record = readRun(dir);
  const model = buildModel(record);
  const session = sessions.state(dir);
  if (isDatabaseMirror(record.runJson)) {
    // A mirror of a run this studio cannot reach: shown, never driven from here.
    return { name, model, locked: record.locked, session, database: { connected: false } };
  }
  // The same posters report.html shows, made once and reused. While the run is being
  // driven only missing ones are made: a clip put back in place mid-session keeps its older
  // time, so a poster made now from what it replaces would pass for fresh afterwards.
  const going = record.locked || session.running !== undefined;
  await makeThumbnails(dir, going ? missingPosters(model) : model).catch(() => undefined);
  return { name, model, locked: record.locked, session };
}

/** The run id a URL segment names in the database, if the studio has one and it holds it. */
async function databaseRun(state: StudioState, segment: string): Promise<string | undefined> {
  const { databaseRuns } = state;
  const name = safeDecode(segment);
  if (!databaseRuns || !isRunName(name)) return undefined;
  return (await databaseRuns.has(name)) ? name : undefined;
}

async function databaseView(state: StudioState, runId: string) {
  const { databaseRuns } = state;
  const view = await databaseRuns?.view(runId);
  if (!view) return undefined;
  if (view.served) {
    await makeThumbnails(view.runDir, view.ended ? view.model : missingPosters(view.model)).catch(
      () => undefined,
    );
  }
  return {
    name: runId,
    model: view.model,
    locked: false,
    session: {},
    database: {
      connected: true,
      ended: view.ended,
      cancelling: view.cancelling,
      workers: view.workers,
      ...(view.served ? {} : { unservedDir: view.runDir }),
    },
  };
}

/** Local runs and the database's (a database run's own mirror listed once, as its run). */
async function allRuns(state: StudioState) {
  const { runsDir, databaseRuns } = state;
  const local = listRuns(runsDir);
  if (!databaseRuns) return local;
  const remote = await databaseRuns.list();
  const ids = new Set(remote.map((run) => run.name));
  return sortRuns([...remote, ...local.filter((run) => !ids.has(run.name))]);
}

async function handle(
  state: StudioState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { runsDir, token, hosts, databaseRuns, sessions } = state;
  const send = textSender(state.redact);
  const json = jsonSender(state.redact);
  const redact = state.redact;
  response.setHeader("Content-Security-Policy", STUDIO_CSP);
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Referrer-Policy", "no-referrer");
  response.setHeader("X-Frame-Options", "DENY");
  if (!allowedHost(request.headers.host, hosts)) return send(response, 421, "unknown host");
  const url = new URL(request.url ?? "/", `http://${request.headers.host}`);
  const given = url.searchParams.get("token");
  if (given !== null && request.method === "GET") {
    if (!isToken(given, token)) return send(response, 401, "a wrong token");
    url.searchParams.delete("token");
    response.writeHead(303, {
      "Set-Cookie": tokenCookie(token),
      Location: url.pathname + url.search,
    });
    response.end();
    return;
  }
  const proof = tokenProof(request, token);
  if (proof === "none")
    return send(
      response,
      401,
      "This studio needs its token: open the address `reelsmith studio` printed (with ?token=…), or send Authorization: Bearer TOKEN.",
      "text/plain; charset=utf-8",
    );
  // The raw path: `..` and encoded slashes are judged segment by segment, never normalised.
  const rawPath = (request.url ?? "/").split("?")[0] ?? "/";
  const segments = rawPath.split("/").slice(1);
  if (request.method === "POST") {
    if (!sameOrigin(request, proof))
      return json(response, 403, { error: "a change must come from the studio's own page" });
    return post(state, request, response, segments);
  }
  if (request.method !== "GET" && request.method !== "HEAD")
    return send(response, 405, "method not allowed");
  if (rawPath === "/")
    return send(response, 200, renderRunsList(runsDir, await allRuns(state), listBatches(runsDir)));
  const asset = STATIC[rawPath];
  if (asset) return send(response, 200, asset.body, asset.type);
  if (rawPath === "/api/runs/events") {
    return streamRunEvents(
      response,
      undefined,
      async () => `${state.version}|${runsStamp(runsDir)}|${(await databaseRuns?.stamp()) ?? ""}`,
      redact,
    );
  }
  if (rawPath === "/api/runs") return json(response, 200, await allRuns(state));
  if (rawPath === "/api/batches") return json(response, 200, listBatches(runsDir));
  if (rawPath === "/api/runs/view")
    return send(
      response,
      200,
      renderRunsTable(runsDir, await allRuns(state), listBatches(runsDir)),
    );
  const [area, name = "", ...rest] = segments;
  if (area === "batches") return sendBatchPage(state, response, name, rest);
  // A run of the database: its page and live view from its tables; its files (below) only
  // from inside the runs directory, as any run's.
  const runId =
    area === "api" && name === "runs" && rest.length === 2
      ? await databaseRun(state, rest[0] ?? "")
      : area === "runs" && rest.length === 1 && rest[0] === ""
        ? await databaseRun(state, name)
        : undefined;
  if (runId && databaseRuns) {
    if (area === "runs") {
      const view = await databaseView(state, runId);
      if (view) return send(response, 200, renderRunPage(view));
    } else if (rest[1] === "view") {
      const view = await databaseView(state, runId);
      if (view) return send(response, 200, renderRunView(view));
    } else if (rest[1] === "events") {
      const source = databaseRuns;
      return streamDatabaseRunEvents(
        response,
        {
          afterId: await source.lastEventId(runId),
          eventsAfter: (afterId) => source.eventsAfter(runId, afterId),
          stamp: () => source.stamp(runId),
        },
        redact,
      );
    }
  }
  const dir = runDirectory(runsDir, safeDecode(name));
  if (area === "api" && name === "runs" && rest.length === 2) {
    const runDir = runDirectory(runsDir, safeDecode(rest[0] ?? ""));
    if (!runDir) return send(response, 404, "no such run");
    if (rest[1] === "view")
      return send(response, 200, renderRunView(await runView(state, rest[0] ?? "", runDir)));
    if (rest[1] === "events")
      return streamRunEvents(
        response,
        runDir,
        () => `${state.version}:${JSON.stringify(sessions.state(runDir))}`,
        redact,
      );
  }
  if (area === "runs" && dir) {
    if (rest.length === 0) return redirect(response, `/runs/${name}/`);
    if (rest.length === 1 && rest[0] === "")
      return send(response, 200, renderRunPage(await runView(state, safeDecode(name), dir)));
    const file = runFilePath(dir, rest);
    if (file) return sendFile(request, response, file);
  }
  return send(response, 404, "not found", "text/plain; charset=utf-8");
}

/** A batch directory's page: its rows, each opening its run's page (`/runs/BATCH~ROW/`). */
function sendBatchPage(
  state: StudioState,
  response: ServerResponse,
  name: string,
  rest: string[],
): void {
  const send = textSender(state.redact);
  const batch = name.includes(ROW_SEPARATOR)
    ? undefined
    : readBatchSummary(state.runsDir, safeDecode(name));
  if (batch && rest.length === 0) redirect(response, `/batches/${name}/`);
  else if (batch && rest.length === 1 && rest[0] === "")
    send(response, 200, renderBatchPage(batch));
  else send(response, 404, "no such batch", "text/plain; charset=utf-8");
}

async function post(
  state: StudioState,
  request: IncomingMessage,
  response: ServerResponse,
  segments: string[],
): Promise<void> {
  const { runsDir, databaseRuns, sessions, by } = state;
  const json = jsonSender(state.redact);
  const [area, what, name = "", action = "", ...extra] = segments;
  if (area !== "api" || what !== "runs" || extra.length > 0)
    return json(response, 404, { error: "not found" });
  const runId = await databaseRun(state, name);
  const runDir = runId ? undefined : runDirectory(runsDir, safeDecode(name));
  if (!runId && !runDir) return json(response, 404, { error: "not found" });
  const fields = await readJsonBody(request);
  if (!fields) return json(response, 400, { error: "send the form's fields as a JSON object" });
  try {
    if (runId && databaseRuns) {
      // Through the distributed API: the run's workers go on with it.
      const { takeRefusal } = await import("../database/database-runs.js");
      if (action === "retake" || action === "pick") throw takeRefusal(action);
      const answer = await databaseRuns.act(
        runId,
        action === "cancel" ? { action } : parseAction(action, fields, by),
      );
      state.version += 1;
      return json(response, answer.status, answer.body);
    }
    if (!runDir) return json(response, 404, { error: "not found" });
    if (isDatabaseMirror(readRun(runDir).runJson)) {
      throw new StudioActionError(
        "this run was made with --database: its state lives in the database, and its directory only mirrors it; start the studio with --database URL (or REELSMITH_DATABASE_URL) to act on it",
      );
    }
    if (action === "cancel") {
      return sessions.stop(runDir)
        ? json(response, 202, { stopping: true })
        : json(response, 409, { error: "this studio runs no session of this run" });
    }
    const started = await sessions.start(runDir, parseAction(action, fields, by));
    return json(response, 202, started);
  } catch (error) {
    const status =
      error instanceof BadActionError || error instanceof StudioActionError ? error.status : 409;
    return json(response, status, {
      error: error instanceof Error ? error.message : String(error),
      ...(error && typeof error === "object" && "code" in error
        ? { code: String(error.code) }
        : {}),
    });
  }
}

/** The model's clips and videos that have no poster yet (the same objects, marked when made). */
function missingPosters(model: ReportModel): ReportModel {
  const absent = (file?: { exists: boolean }) => file !== undefined && !file.exists;
  return {
    ...model,
    cards: model.cards.map(({ thumbnail, takes, ...card }) => ({
      ...card,
      ...(absent(thumbnail) ? { thumbnail } : {}),
      takes: (takes ?? []).filter((take) => absent(take.thumbnail)),
    })),
    finalVideos: model.finalVideos.map(({ poster, ...video }) => ({
      ...video,
      ...(absent(poster) ? { poster } : {}),
    })),
  };
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(308, { Location: location }).end();
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}
