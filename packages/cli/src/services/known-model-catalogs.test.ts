import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext } from "../__fixtures__/test-context.js";
import { executeCli } from "../program.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "reelsmith-cli-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const pipeline = (model: string, size: string) =>
  `name: still\nsteps:\n  - id: still\n    image:\n      model: ${model}\n      prompt: a fox\n      size: ${size}\n      n: 2\n`;

describe("image models known before anything is sent", () => {
  it("validate and plan check and price image steps against the built-in simulator's image models", async () => {
    await writeFile(path.join(dir, "bad.yaml"), pipeline("reel-imag-1", "256x256"));
    const bad = createTestContext({ cwd: dir, env: {} });
    expect(await executeCli(["validate", "bad.yaml"], bad.context)).toBe(2);
    expect(bad.output.stdout).toContain("bad.yaml:5:14: error: unknown image model `reel-imag-1`");
    expect(bad.output.stdout).toContain("did you mean `reel-image-1`?");

    await writeFile(path.join(dir, "good.yaml"), pipeline("reel-image-1", "256x256"));
    const plan = createTestContext({ cwd: dir, env: {} });
    expect(await executeCli(["plan", "good.yaml", "--json"], plan.context)).toBe(0);
    const planned = JSON.parse(plan.output.stdout) as {
      limits: { requests?: Record<string, number>; estimate: { credits: number } };
    };
    // Two images at the simulator's 4 credits each.
    expect(planned.limits.requests).toEqual({ images: 2 });
    expect(planned.limits.estimate.credits).toBe(8);
    const text = createTestContext({ cwd: dir, env: {} });
    expect(await executeCli(["plan", "good.yaml"], text.context)).toBe(0);
    expect(text.output.stdout).toContain("\n  images: 2\n");
  });

  it("a provider profile's image_models are the ones checked", async () => {
    await writeFile(
      path.join(dir, "reelsmith.config.yaml"),
      "service:\n  base_url: http://127.0.0.1:9\nimage_models:\n  img-studio-1:\n    sizes: [1024x1024]\n    price: { per_image: 5 }\n",
    );
    await writeFile(path.join(dir, "p.yaml"), pipeline("img-studio-1", "256x256"));
    const checked = createTestContext({ cwd: dir, env: {} });
    expect(await executeCli(["validate", "p.yaml"], checked.context)).toBe(2);
    expect(checked.output.stdout).toContain(
      "p.yaml:7:13: error: img-studio-1 does not draw 256x256",
    );
  });
});
