import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadEnvironment, resolveConnection } from "./connection.js";

describe("resolveConnection", () => {
  it("prefers flags, then REELSMITH_*, then OPENAI_*", () => {
    const env = {
      REELSMITH_BASE_URL: "http://reelsmith",
      OPENAI_BASE_URL: "http://openai",
      OPENAI_API_KEY: "sk-openai",
    };
    expect(resolveConnection({ apiKey: "sk-flag" }, env)).toEqual({
      baseURL: "http://reelsmith",
      apiKey: "sk-flag",
      baseURLSource: "REELSMITH",
      apiKeySource: "flag",
    });
    expect(resolveConnection({}, env).apiKeySource).toBe("OPENAI");
    expect(resolveConnection({ baseUrl: "http://flag" }, env).baseURL).toBe("http://flag");
    expect(resolveConnection({}, {})).toEqual({ baseURLSource: "none", apiKeySource: "none" });
  });

  it("refuses a base URL holding credentials or no host, never showing the key", () => {
    const secret = "sk-test-SECRET-0123456789abcdef";
    const refused = (env: Record<string, string>, flags = {}) => {
      try {
        resolveConnection(flags, env);
      } catch (error) {
        return error as { message: string; hint: string; exitCode: number; code: string };
      }
      throw new Error("not refused");
    };
    const withKey = refused({ REELSMITH_BASE_URL: `http://user:${secret}@127.0.0.1:9/v1` });
    expect(withKey.exitCode).toBe(2);
    expect(withKey.code).toBe("base_url_credentials");
    expect(withKey.message).toBe(
      "REELSMITH_BASE_URL: the base URL holds credentials (http://***@127.0.0.1:9/v1); nothing was sent",
    );
    expect(withKey.hint).toContain("put the key in REELSMITH_API_KEY");
    expect(JSON.stringify(withKey) + withKey.message + withKey.hint).not.toContain(secret);
    expect(refused({}, { baseUrl: `https://${secret}@h` }).message).toMatch(/^--base-url: /);
    expect(refused({ OPENAI_BASE_URL: "http://" }).code).toBe("invalid_base_url");
  });

  it("puts a provider profile after REELSMITH_* and before OPENAI_*", () => {
    const profile = {
      baseURL: "http://profile",
      apiKey: "sk-profile",
      apiKeyVariable: "EXAMPLE_KEY",
    };
    const openai = { OPENAI_BASE_URL: "http://openai", OPENAI_API_KEY: "sk-openai" };
    expect(resolveConnection({}, openai, profile)).toEqual({
      baseURL: "http://profile",
      apiKey: "sk-profile",
      baseURLSource: "profile",
      apiKeySource: "profile",
      apiKeyVariable: "EXAMPLE_KEY",
    });
    expect(
      resolveConnection(
        {},
        { ...openai, REELSMITH_BASE_URL: "http://reelsmith", REELSMITH_API_KEY: "sk-r" },
        profile,
      ),
    ).toEqual({
      baseURL: "http://reelsmith",
      apiKey: "sk-r",
      baseURLSource: "REELSMITH",
      apiKeySource: "REELSMITH",
    });
    expect(resolveConnection({ baseUrl: "http://flag" }, openai, profile).baseURL).toBe(
      "http://flag",
    );
    // A profile without a base URL or a set key leaves OPENAI_* to fill in.
    expect(resolveConnection({}, openai, {})).toMatchObject({
      baseURLSource: "OPENAI",
      apiKeySource: "OPENAI",
    });
  });
});

describe("loadEnvironment", () => {
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "reelsmith-env-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads a .env without overriding the real environment", async () => {
    await writeFile(
      path.join(dir, ".env"),
      "REELSMITH_BASE_URL=http://from-file\nREELSMITH_API_KEY=file-key\n",
    );
    const env = loadEnvironment(dir, { REELSMITH_API_KEY: "real-key", UNSET: undefined });
    expect(env.REELSMITH_BASE_URL).toBe("http://from-file");
    expect(env.REELSMITH_API_KEY).toBe("real-key");
    expect("UNSET" in env).toBe(false);
  });

  it("works without a .env", () => {
    expect(loadEnvironment(dir, { A: "1" })).toEqual({ A: "1" });
  });
});
