import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@reelsmith/core";
import { type Coordinator, connect, followRun, runDetail, submitRun } from "@reelsmith/distributed";
import { runPipeline } from "@reelsmith/runner";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDatabase, type TestDatabase } from "../../distributed/test/helpers/postgres.js";
import {
  spawnWorker,
  stopWorker,
  type WorkerProcess,
} from "../../distributed/test/helpers/workers.js";
import { type Studio, startStudio } from "../src/index.js";
import { launchBrowser } from "./helpers/browser.js";

const gated = join(
  import.meta.dirname,
  "..",
  "..",
  "distributed",
  "test",
  "fixtures",
  "gated.yaml",
);

describe("the studio with --database: runs on many machines, in headless Chromium", () => {
  let database: TestDatabase;
  let simulator: Simulator;
  let coordinator: Coordinator;
  let worker: WorkerProcess;
  let studio: Studio;
  let browser: Browser;
  let page: Page;
  let runsDir: string;
  let localName = "";

  const videoJobs = () => simulator.stats().videoJobs.created;
  /** A gated run submitted to the workers, followed until it waits at its gate. */
  const waitingRun = async (scenes: number) => {
    const { runId } = await submitRun(coordinator, {
      pipeline: gated,
      inputs: { scenes },
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: runsDir,
      cache: false,
    });
    expect((await followRun(coordinator, runId)).status).toBe("waiting");
    return runId;
  };
  /** Confirms the dialog an action opens and returns the price it showed. */
  const confirm = async () => {
    await page.locator("dialog#confirm").waitFor({ state: "visible" });
    const price = (await page.locator("#confirm-price").textContent()) ?? "";
    await page.locator("#confirm-ok").click();
    return price;
  };
  const post = (runId: string, action: string, body: object) =>
    page.request.post(`${studio.url}/api/runs/${runId}/${action}`, {
      headers: { origin: studio.url, "content-type": "application/json" },
      data: body,
    });

  beforeAll(async () => {
    database = await startTestDatabase();
    simulator = await startSimulator({ timeScale: 0.05 });
    coordinator = await connect(database.url);
    worker = await spawnWorker(database.url, simulator.apiKey);
    const root = mkdtempSync(join(tmpdir(), "reelsmith-studio-db-"));
    runsDir = join(root, "runs");
    // A local run beside them, stopped at the same gate.
    const client = createClient({ baseURL: simulator.url, apiKey: simulator.apiKey });
    const local = await runPipeline(gated, {
      client,
      runsRoot: runsDir,
      cache: false,
      inputs: { scenes: 1 },
    });
    expect(local.status).toBe("waiting");
    localName = local.runDir.split("/").at(-1) ?? "";
    studio = await startStudio({
      runsDir,
      by: "reviewer",
      database: coordinator,
      studioHost: {
        openService: async () => {
          throw new Error("no local session in this test");
        },
        secrets: [simulator.apiKey],
      },
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(studio.loginUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
    if (worker) await stopWorker(worker);
    await coordinator?.close();
    await simulator?.close();
    await database?.stop();
  });

  it("lists the database's run beside the local one, approves it from its page, and the workers finish it", async () => {
    const runId = await waitingRun(2);
    expect(videoJobs()).toBe(0);
    await page.goto(`${studio.url}/`);
    const row = page.locator(`tr[data-run="${runId}"]`);
    await row.waitFor();
    expect(await row.getAttribute("data-database")).toBe("true");
    expect(await row.locator(".badge").textContent()).toBe("waiting");
    expect(await row.textContent()).toContain("gated");
    const waiting = await runDetail(coordinator, runId);
    expect(Number(await row.locator(".spent").textContent())).toBe(waiting?.credits.spent);
    expect(await row.locator(".estimate").textContent()).toMatch(/^\d+(\.\d+)?\+?$/);
    expect(await row.locator("td.workers").textContent()).toContain(`pid ${worker.child.pid}`);
    const localRow = page.locator(`tr[data-run="${localName}"]`);
    expect(await localRow.locator(".badge").textContent()).toBe("waiting");
    expect(await localRow.getAttribute("data-database")).toBeNull();

    await row.locator("a").click();
    const gate = page.locator('.gate-actions[data-step="review"]');
    await gate.waitFor();
    // No retake or pick is offered for a run on many machines; cancel is (it has not ended).
    expect(await page.locator('form[data-action="retake"], form[data-action="pick"]').count()).toBe(
      0,
    );
    expect(await page.locator('form[data-action="cancel"]').count()).toBe(1);
    const next = (await page.locator("#next-credits").textContent()) ?? "";
    await gate.locator("input[name=note]").fill("scenes read in the studio");
    await gate.getByRole("button", { name: "Approve" }).click();
    expect(await confirm()).toBe(`costs ${next} credits`);
    // Page state, not time: the final video appears once the workers have finished the run.
    await page.locator("video.final").waitFor({ timeout: 170_000 });
    await page.locator("#run-status", { hasText: "succeeded" }).waitFor({ timeout: 170_000 });
    expect(videoJobs()).toBe(2);
    const source = (await page.locator("video.final").getAttribute("src")) ?? "";
    const video = await page.request.get(new URL(source, page.url()).href);
    expect(video.status()).toBe(200);
    expect(video.headers()["content-type"]).toBe("video/mp4");
    expect(await page.locator('article.gate[data-step="review"] .decided-by').textContent()).toBe(
      "reviewer",
    );
    // The decision is the database's: `status` (runDetail) shows it.
    const detail = await runDetail(coordinator, runId);
    expect(detail?.status).toBe("succeeded");
    expect(detail?.gates).toEqual([
      expect.objectContaining({
        step: "review",
        state: "approved",
        decision: expect.objectContaining({ by: "reviewer", note: "scenes read in the studio" }),
      }),
    ]);
    expect(await page.content()).not.toContain(simulator.apiKey);
    expect(await page.content()).not.toContain("postgres:postgres");
  });

  it("refuses a retake and a pick of a database run with what to do instead, and sends nothing", async () => {
    const runId = await waitingRun(1);
    const before = videoJobs();
    for (const action of ["retake", "pick"]) {
      const answer = await post(runId, action, { step: "clips", index: "0", take: "1" });
      expect(answer.status()).toBe(409);
      expect(((await answer.json()) as { error: string }).error).toContain(
        `${action} is not available for a run made with --database`,
      );
    }
    // A cross-origin change is refused as for any run.
    const foreign = await page.request.post(`${studio.url}/api/runs/${runId}/cancel`, {
      headers: { origin: "http://evil.example", "content-type": "application/json" },
      data: {},
    });
    expect(foreign.status()).toBe(403);
    expect(videoJobs() - before).toBe(0);
    expect((await runDetail(coordinator, runId))?.status).toBe("waiting");
  });

  it("cancels a waiting database run from its page, then resumes it to its gate again: no video job", async () => {
    const runId = await waitingRun(1);
    const before = videoJobs();
    await page.goto(`${studio.url}/runs/${runId}/`);
    await page.locator('form[data-action="cancel"] button').click();
    expect(await confirm()).toBe("costs 0 credits");
    await page.locator("#run-status", { hasText: "cancelled" }).waitFor({ timeout: 120_000 });
    expect((await runDetail(coordinator, runId))?.status).toBe("cancelled");
    await page.locator('form[data-action="resume"] button').click();
    expect(await confirm()).toMatch(/^costs \d+(\.\d+)?\+? credits$/);
    await page.locator("#run-status", { hasText: "waiting" }).waitFor({ timeout: 120_000 });
    await page.locator('.gate-actions[data-step="review"] form[data-action="approve"]').waitFor();
    expect((await runDetail(coordinator, runId))?.attempt).toBe(2);
    expect(videoJobs() - before).toBe(0);
  });

  it("shows a database run's mirror, when the studio has no database, without offering to act on it", async () => {
    const runs = (await (await page.request.get(`${studio.url}/api/runs`)).json()) as {
      name: string;
      database?: boolean;
    }[];
    const mirrored = runs.find((run) => run.database);
    if (!mirrored) throw new Error("no database run listed");
    const plain = await startStudio({
      runsDir,
      studioHost: { openService: async () => Promise.reject(new Error("none")) },
    });
    try {
      const headers = { authorization: `Bearer ${plain.token}` };
      const list = (await (await fetch(`${plain.url}/api/runs`, { headers })).json()) as {
        name: string;
        database?: boolean;
      }[];
      expect(list.find((run) => run.name === mirrored.name)?.database).toBe(true);
      const pageHtml = await (
        await fetch(`${plain.url}/runs/${mirrored.name}/`, { headers })
      ).text();
      expect(pageHtml).toContain("Start the studio with <code>--database URL</code>");
      expect(pageHtml).not.toContain('data-action="approve"');
      const refused = await fetch(`${plain.url}/api/runs/${mirrored.name}/resume`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: "{}",
      });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { error: string }).error).toContain("--database");
    } finally {
      await plain.close();
    }
  });
});
