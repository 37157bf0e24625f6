import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  type ProviderName,
  providerAccess,
  providerModalities,
  providerNames,
} from "@reelsmith/core/catalog";
import { validateProfile } from "@reelsmith/core/profile";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cleanEnv, runCli, tempDir } from "./helpers/cli-process.js";

/** The providers that list no models: `--write-config --provider` writes their starter. */
const unlisted = providerNames.filter((name) => !providerAccess(name).listsModels);

describe("models and write-config per provider (built CLI)", () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    work = await tempDir();
  });
  afterAll(async () => {
    await work.remove();
  });

  it("has providers that list no models in the registry", () => {
    expect(unlisted.length).toBeGreaterThan(0);
  });

  it.each(unlisted)(
    "write-config --provider %s: a valid profile with its dialect, key variables and the named models, each unknown field null with what to fill in",
    async (provider: ProviderName) => {
      const file = `${provider}.yaml`;
      const result = await runCli(
        [
          "models",
          "--write-config",
          file,
          "--provider",
          provider,
          "--model",
          "acme/one",
          "--model",
          "acme/two",
        ],
        { cwd: work.dir, env: cleanEnv() },
      );
      expect(result.code, result.stderr).toBe(0);
      const access = providerAccess(provider);
      expect(result.stdout).toContain(
        `the key stays in the environment: ${(access.keyParts ?? [access.keyEnv]).join(" and ")}`,
      );
      const text = await readFile(path.join(work.dir, file), "utf8");
      const profile = parse(text) as Record<string, Record<string, unknown>>;
      expect(validateProfile(profile)).toEqual([]);
      expect(profile.service).toMatchObject({
        dialect: provider,
        api_key_env: [...(access.keyParts ?? [access.keyEnv])],
      });
      const [first, ...others] = providerModalities(provider);
      const section = profile[`${first}_models`] ?? {};
      expect(Object.keys(section)).toEqual(["acme/one", "acme/two"]);
      for (const fields of Object.values(section))
        for (const value of Object.values(fields as object)) expect(value).toBeNull();
      expect(text).toMatch(/: null # fill in: /);
      for (const modality of others) expect(text).toContain(`under ${modality}_models:`);
      expect(text).not.toMatch(/sk-|Bearer /);
    },
  );

  it("models --provider NAME of a provider that lists no models says what it serves and how to declare its models", async () => {
    const [provider] = unlisted;
    if (!provider) throw new Error("no provider without a model list");
    const result = await runCli(["models", "--provider", provider, "--json"], {
      cwd: work.dir,
      env: cleanEnv(),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      provider,
      listsModels: false,
      modalities: providerModalities(provider),
    });
    const text = await runCli(["models", "--provider", provider], {
      cwd: work.dir,
      env: cleanEnv(),
    });
    expect(text.stdout).toContain(
      `reelsmith models --write-config --provider ${provider} --model ID`,
    );
  });

  it("write-config --provider of a provider that lists its models reads the service's list, in that dialect", async () => {
    const provider = providerNames.find((name) => providerAccess(name).listsModels);
    if (!provider) throw new Error("no provider with a model list");
    const result = await runCli(
      ["models", "--write-config", "listed.yaml", "--provider", provider],
      { cwd: work.dir, env: cleanEnv() },
    );
    expect(result.code, result.stderr).toBe(0);
    const profile = parse(await readFile(path.join(work.dir, "listed.yaml"), "utf8"));
    expect(profile.service.dialect).toBe(provider);
    // The built-in simulator's list: its chat models come from the service, not from flags.
    expect(Object.keys(profile.chat_models ?? {}).length).toBeGreaterThan(0);
  });

  it("refuses an unknown provider and --model without --write-config, naming what to do", async () => {
    const unknown = await runCli(["models", "--provider", "acme"], {
      cwd: work.dir,
      env: cleanEnv(),
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--provider|choices/);
    const model = await runCli(["models", "--model", "x"], { cwd: work.dir, env: cleanEnv() });
    expect(model.code).toBe(2);
    expect(model.stderr).toContain("--write-config");
  });
});
