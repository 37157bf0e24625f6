import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunOptions } from "../src/run-options.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const pipeline = {
  name: "service-cache",
  steps: [
    {
      id: "clip",
      video: {
        model: "reel-video-2-lite",
        seconds: 1,
        size: "720x480",
        prompt: "a harbour at dawn",
        output: "clips/harbour.mp4",
      },
    },
  ],
};

describe("the cache and the service that made a result", () => {
  // Four simulators on their own ports; every run uses the cache directory of `a`.
  let a: TestService;
  let b: TestService;
  let builtIn1: TestService;
  let builtIn2: TestService;
  beforeAll(async () => {
    [a, b, builtIn1, builtIn2] = await Promise.all([
      startTestService(),
      startTestService(),
      startTestService(),
      startTestService(),
    ]);
  });
  afterAll(() => Promise.all([a, b, builtIn1, builtIn2].map((service) => service.close())));

  const on = (service: TestService, extra: RunOptions = {}) =>
    service.options({ runsRoot: a.options().runsRoot, cacheDir: a.options().cacheDir, ...extra });

  it("serves a result only to runs on the service that made it", async () => {
    const first = await runPipeline(pipeline, on(a));
    expect(first.status).toBe("succeeded");
    expect(first.totals.cachedSteps).toBe(0);
    expect(a.simulator.stats().videoJobs.created).toBe(1);

    const again = await runPipeline(pipeline, on(a));
    expect(again.status).toBe("succeeded");
    expect(again.totals.cachedSteps).toBe(1);
    expect(a.simulator.stats().videoJobs.created).toBe(1);

    const elsewhere = await runPipeline(pipeline, on(b));
    expect(elsewhere.status).toBe("succeeded");
    expect(elsewhere.totals.cachedSteps).toBe(0);
    expect(b.simulator.stats().videoJobs.created).toBe(1);
  });

  it("shares results between built-in simulators whatever their port, and with no service at a URL", async () => {
    const first = await runPipeline(pipeline, on(builtIn1, { builtInService: true }));
    expect(first.status).toBe("succeeded");
    expect(first.totals.cachedSteps).toBe(0);
    expect(builtIn1.simulator.stats().videoJobs.created).toBe(1);

    const next = await runPipeline(pipeline, on(builtIn2, { builtInService: true }));
    expect(next.status).toBe("succeeded");
    expect(next.totals.cachedSteps).toBe(1);
    expect(builtIn2.simulator.stats().videoJobs.created).toBe(0);

    // The same simulator addressed as a service at a URL: the synthetic clip is not served.
    const asService = await runPipeline(pipeline, on(builtIn2));
    expect(asService.status).toBe("succeeded");
    expect(asService.totals.cachedSteps).toBe(0);
    expect(builtIn2.simulator.stats().videoJobs.created).toBe(1);
  });
});
