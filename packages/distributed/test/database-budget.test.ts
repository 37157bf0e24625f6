import type { VideoModelCatalog } from "@reelsmith/core";
import { estimateVideoCredits } from "@reelsmith/core/catalog";
import { BudgetExceededError, RunCancelledError } from "@reelsmith/runner/errors";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setBudget } from "../src/admin-entry.js";
import { createPool } from "../src/database/pool.js";
import { migrate } from "../src/index.js";
import { createDatabaseBudget } from "../src/internal.js";
import { createRunStore, type RunStore } from "../src/store/run-store.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";

const catalog: VideoModelCatalog = [
  { id: "by-pixels", price: { perMegapixelSecond: 10 } },
  { id: "by-seconds", price: { perClip: 5, perSecond: 3 } },
  { id: "unpriced", seconds: { min: 1, max: 8 } },
];

let database: TestDatabase;
let pool: pg.Pool;
let store: RunStore;
let runs = 0;

beforeAll(async () => {
  database = await startTestDatabase();
  await migrate(database.url);
  pool = createPool(database.url);
  store = createRunStore(pool);
});
afterAll(async () => {
  await pool?.end();
  await database?.stop();
});

/** A run in the runs table, and a budget of its own (`maxCredits`, null for none). */
async function newRun(maxCredits: number | null) {
  runs += 1;
  const runId = `run-${runs}`;
  await store.insertRun({
    runId,
    name: "budgeted",
    pipelinePath: "<inline>",
    pipelineSource: "{}",
    pipelineHash: "-",
    inputs: {},
    options: {},
    service: "svc",
    baseURL: "http://127.0.0.1:1",
    runDir: `/tmp/${runId}`,
  });
  const scope = `run:${runId}`;
  await setBudget(pool, scope, maxCredits);
  const waits: string[] = [];
  const controller = new AbortController();
  const budget = createDatabaseBudget({
    pool,
    runId,
    service: "svc",
    scopes: [scope],
    maxCredits: maxCredits ?? undefined,
    signal: controller.signal,
    waitIntervalMs: 20,
    onWait: (kind) => waits.push(`${kind.model} ${kind.size} ${kind.seconds}`),
  });
  /** Resolves once a submission of this run has started waiting for its price. */
  const waiting = async () => {
    while (waits.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  return { runId, budget, waits, waiting, controller };
}

const reservation = async (key: string) =>
  (
    await pool.query<{ estimate: string; state: string }>(
      "SELECT estimate, state FROM reelsmith.reservations WHERE key = $1",
      [key],
    )
  ).rows[0];

/** What the database knows of the unpriced model's price at a size. */
const priceRow = async (size: string) =>
  (
    await pool.query<{ credits: string | null; probe: string | null }>(
      `SELECT credits, probe FROM reelsmith.video_prices
       WHERE service = 'svc' AND model = 'unpriced' AND size = $1 AND seconds = '2'`,
      [size],
    )
  ).rows[0];

/** A request of a priced model with the credits its kind expects it to cost (the catalog's price). */
const priced = (request: { model: string; seconds: number | string; size: string }) => {
  const spec = catalog.find((model) => model.id === request.model);
  if (!spec) throw new Error(`${request.model} is not in the catalog`);
  return { request, credits: estimateVideoCredits(spec, Number(request.seconds), request.size) };
};

/** A request of the unpriced model at a size of its own, so that tests never share a price. */
const unpriced = (size: string) => ({ model: "unpriced", size, seconds: 2 });

describe("the database budget", () => {
  it("reserves the price the kind expects for the request's size and length", async () => {
    const { runId, budget } = await newRun(1000);
    await budget.assertCanSubmit({
      key: `${runId}-a`,
      ...priced({ model: "by-pixels", seconds: 4, size: "1280x720" }),
    });
    await budget.assertCanSubmit({
      key: `${runId}-b`,
      ...priced({ model: "by-seconds", seconds: "8", size: "1280x720" }),
    });
    expect(Number((await reservation(`${runId}-a`))?.estimate)).toBe(37);
    expect(Number((await reservation(`${runId}-b`))?.estimate)).toBe(29);
    const scope = await pool.query("SELECT reserved FROM reelsmith.budgets WHERE scope = $1", [
      `run:${runId}`,
    ]);
    expect(Number(scope.rows[0].reserved)).toBe(66);
    // The expected price refuses what does not fit: 66 + 37 > 100 once the maximum is lowered.
    await setBudget(pool, `run:${runId}`, 100);
    await expect(
      budget.assertCanSubmit({
        key: `${runId}-c`,
        ...priced({ model: "by-pixels", seconds: 4, size: "1280x720" }),
      }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it("learns an unknown price: a second job of the kind waits for the first and reserves what it cost", async () => {
    const first = await newRun(100);
    const second = await newRun(100);
    await first.budget.assertCanSubmit({ key: "learn-a", request: unpriced("100x100") });
    expect(Number((await reservation("learn-a"))?.estimate)).toBe(0);
    expect(await priceRow("100x100")).toMatchObject({ credits: null, probe: "learn-a" });
    // Another run, its own budget: it waits all the same (the price is the service's).
    const admitted = second.budget.assertCanSubmit({
      key: "learn-b",
      request: unpriced("100x100"),
    });
    await second.waiting();
    expect(second.waits).toEqual(["unpriced 100x100 2"]);
    expect(await reservation("learn-b")).toBeUndefined();
    await first.budget.spend(30, { key: "learn-a" });
    await admitted;
    expect(await reservation("learn-b")).toMatchObject({ estimate: "30", state: "reserved" });
    expect(await priceRow("100x100")).toMatchObject({ credits: "30", probe: null });
    // Known from now on: a third job is admitted at once at that price.
    await first.budget.assertCanSubmit({ key: "learn-c", request: unpriced("100x100") });
    expect(Number((await reservation("learn-c"))?.estimate)).toBe(30);
    expect(first.waits).toEqual([]);
  });

  it("never waits without a maximum", async () => {
    const { budget, waits } = await newRun(null);
    await budget.assertCanSubmit({ key: "free-a", request: unpriced("200x200") });
    await budget.assertCanSubmit({ key: "free-b", request: unpriced("200x200") });
    expect(waits).toEqual([]);
    expect(await reservation("free-b")).toMatchObject({ estimate: "0", state: "reserved" });
    // The first one still teaches the price to runs that have a maximum.
    await budget.spend(12, { key: "free-a" });
    expect(await priceRow("200x200")).toEqual({ credits: "12", probe: null });
  });

  it("a first job given up lets a waiting one learn instead", async () => {
    const { budget, waiting } = await newRun(100);
    await budget.assertCanSubmit({ key: "given-up-a", request: unpriced("300x300") });
    const admitted = budget.assertCanSubmit({ key: "given-up-b", request: unpriced("300x300") });
    await waiting();
    await budget.release?.({ key: "given-up-a" });
    await admitted;
    expect(await reservation("given-up-a")).toMatchObject({ state: "released" });
    expect(await reservation("given-up-b")).toMatchObject({ estimate: "0", state: "reserved" });
    expect(await priceRow("300x300")).toEqual({ credits: null, probe: "given-up-b" });
  });

  it("a first job of a run that ended holds nothing: the next one learns at once", async () => {
    const ended = await newRun(100);
    await ended.budget.assertCanSubmit({ key: "ended-a", request: unpriced("400x400") });
    await store.endRun(ended.runId, { status: "failed", outputs: {}, totals: {} });
    const next = await newRun(100);
    await next.budget.assertCanSubmit({ key: "ended-b", request: unpriced("400x400") });
    expect(next.waits).toEqual([]);
    expect(await priceRow("400x400")).toEqual({ credits: null, probe: "ended-b" });
  });

  it("a cancel of the run ends a wait, by its mark or by its signal", async () => {
    const first = await newRun(100);
    await first.budget.assertCanSubmit({ key: "cancel-a", request: unpriced("500x500") });
    const marked = await newRun(100);
    const byMark = marked.budget.assertCanSubmit({
      key: "cancel-b",
      request: unpriced("500x500"),
    });
    await marked.waiting();
    await store.requestCancel(marked.runId);
    await expect(byMark).rejects.toBeInstanceOf(RunCancelledError);
    const signalled = await newRun(100);
    const bySignal = signalled.budget.assertCanSubmit({
      key: "cancel-c",
      request: unpriced("500x500"),
    });
    await signalled.waiting();
    signalled.controller.abort(new RunCancelledError("the run was cancelled"));
    await expect(bySignal).rejects.toBeInstanceOf(RunCancelledError);
    expect(await reservation("cancel-b")).toBeUndefined();
    expect(await reservation("cancel-c")).toBeUndefined();
  });

  it("refuses the first job of an unknown price when nothing is left", async () => {
    const { runId, budget } = await newRun(10);
    await budget.assertCanSubmit({
      key: `${runId}-full`,
      request: { model: "by-seconds", seconds: 1, size: "1x1" },
    });
    await budget.spend(10, { key: `${runId}-full` });
    await expect(
      budget.assertCanSubmit({ key: `${runId}-unknown`, request: unpriced("600x600") }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
    expect(budget.refused).toBe(true);
    expect(await reservation(`${runId}-unknown`)).toMatchObject({ state: "refused" });
  });
});
