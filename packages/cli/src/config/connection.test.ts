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
