import { writeFile } from "node:fs/promises";
import path from "node:path";
import { modalities, modalitySection } from "@reelsmith/core/catalog";
import { modelCatalogs } from "@reelsmith/simulator/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, runCli, tempDir } from "./helpers/cli-process.js";

/** `models` shows one table per modality core declares, whatever the modality's name. */
describe("models over the modalities", () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    work = await tempDir();
  });
  afterAll(async () => {
    await work.remove();
  });

  it("shows every modality's models of the built-in simulator, in text and in JSON", async () => {
    const text = await runCli(["models"], { cwd: work.dir, env: cleanEnv() });
    expect(text.code, text.stderr).toBe(0);
    const json = await runCli(["models", "--json"], { cwd: work.dir, env: cleanEnv() });
    expect(json.code, json.stderr).toBe(0);
    const listing = JSON.parse(json.stdout) as Record<string, { id: string }[]>;
    for (const modality of modalities) {
      const served = modelCatalogs[modalitySection(modality)].map((model) => model.id);
      expect(served.length, modality).toBeGreaterThan(0);
      expect(text.stdout, modality).toMatch(new RegExp(`^${modality} model\\b`, "m"));
      const shown = (listing[`${modality}Models`] ?? []).map((model) => model.id);
      expect(shown, modality).toEqual(expect.arrayContaining(served));
      for (const id of served) expect(text.stdout, id).toContain(id);
    }
  });

  it("shows a profile's sections of every modality as known from the profile", async () => {
    const profile = path.join(work.dir, "reelsmith.config.yaml");
    await writeFile(
      profile,
      [
        ...modalities.map((modality) => `${modalitySection(modality)}: { acme-${modality}: null }`),
        "",
      ].join("\n"),
    );
    const json = await runCli(["models", "--json"], {
      cwd: work.dir,
      env: cleanEnv(),
    });
    expect(json.code, json.stderr).toBe(0);
    const listing = JSON.parse(json.stdout) as Record<string, { id: string; knownFrom: string }[]>;
    for (const modality of modalities) {
      const own = (listing[`${modality}Models`] ?? []).filter(
        (model) => model.knownFrom === "profile",
      );
      expect(
        own.map((model) => model.id),
        modality,
      ).toEqual([`acme-${modality}`]);
    }
  });
});
