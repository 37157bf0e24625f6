import { fileURLToPath } from "node:url";
import { providerNames } from "@reelsmith/core/catalog";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../pipeline/diagnostic.js";
import { loadProfile } from "./load-profile.js";
import { ProfileError } from "./profile-error.js";

/** The providers a bad dialect's message lists: "reference, openai, fal or …", from the registry. */
const allowedDialects = `${providerNames.slice(0, -1).join(", ")} or ${providerNames.at(-1)}`;

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

async function refusal(input: Parameters<typeof loadProfile>[0]): Promise<ProfileError> {
  const error = await loadProfile(input).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProfileError);
  return error as ProfileError;
}

describe("loadProfile", () => {
  it("loads a profile with its catalog, chat models, unknown fields and positions", async () => {
    const loaded = await loadProfile(fixture("reference.yaml"));
    expect(loaded.path).toBe(fixture("reference.yaml"));
    expect(loaded.catalog.map((model) => model.id)).toEqual(["veo-3-fast", "kling-2", "new-model"]);
    expect(loaded.catalog[0]).toMatchObject({
      id: "veo-3-fast",
      seconds: { min: 1, max: 8 },
      sizes: ["1280x720", "720x1280"],
      price: { perClip: 10, perSecond: 2 },
    });
    expect(loaded.chatModels).toEqual([
      { id: "gpt-4o-mini", images: true, json: true, tools: true },
    ]);
    expect(loaded.unknowns.filter((u) => u.model === "kling-2").map((u) => u.field)).toEqual([
      "sizes",
      "image",
      "params",
      "price",
    ]);
    expect(loaded.positionOf("/video_models/veo-3-fast/seconds")).toEqual({ line: 9, column: 14 });
    expect(loaded.positionOf(["video_models", "kling-2"], { key: true })).toEqual({
      line: 15,
      column: 3,
    });
    expect(loaded.lineText(15)).toBe("  kling-2:");
  });

  it("refuses a key written in the file at its line, without ever showing the key", async () => {
    const error = await refusal(fixture("secret.yaml"));
    expect(error.code).toBe("invalid_profile");
    expect(error.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ["PROFILE_SECRET", 3, 3],
      ["PROFILE_SECRET", 5, 34],
    ]);
    expect(error.diagnostics[0]?.sourceLine).toBe("  api_key: <redacted>");
    expect(error.diagnostics[0]?.hint).toContain("api_key_env");
    const shown = `${error.message}\n${error.diagnostics.map(formatDiagnostic).join("\n")}`;
    expect(shown).not.toContain("sk-live-0123456789abcdef");
    expect(shown).not.toContain("tok-abcdef");
    expect(formatDiagnostic(error.diagnostics[0]!)).toMatch(
      /secret\.yaml:3:3: error: .*\n {2} {2}api_key: <redacted>\n {2} {2}\^\n {2}hint: /,
    );
  });

  it("refuses an unknown dialect at its value, naming the two dialects", async () => {
    const error = await refusal(fixture("bad-dialect.yaml"));
    expect(error.diagnostics).toEqual([
      expect.objectContaining({
        code: "PROFILE_INVALID_VALUE",
        line: 3,
        column: 12,
        sourceLine: "  dialect: grpc",
        message: expect.stringContaining(`use ${allowedDialects}`),
      }),
    ]);
  });

  it("refuses an unknown field at its key, naming the allowed ones", async () => {
    const error = await refusal(fixture("unknown-field.yaml"));
    expect(error.diagnostics).toEqual([
      expect.objectContaining({
        code: "PROFILE_UNKNOWN_KEY",
        line: 6,
        column: 5,
        message: expect.stringContaining("allowed: description, seconds, sizes"),
      }),
    ]);
  });

  it("reports YAML syntax errors at their place", async () => {
    const error = await refusal({
      source:
        "service:\n  base_url: https://media.example.com\nvideo_models:\n  veo-3-fast:\n    seconds: [4, 8\n    sizes: [1280x720]\n",
      path: "syntax.yaml",
    });
    expect(error.diagnostics.length).toBeGreaterThan(0);
    for (const diagnostic of error.diagnostics) {
      expect(diagnostic.code).toBe("YAML_SYNTAX");
      expect(diagnostic.line).toBeGreaterThanOrEqual(5);
      expect(diagnostic.message).toMatch(/^YAML: /);
    }
  });

  it("refuses a missing file, a directory, an empty document and several documents", async () => {
    const missing = await refusal(fixture("nope.yaml"));
    expect(missing.diagnostics[0]).toMatchObject({
      code: "PROFILE_UNREADABLE",
      message: `cannot read the provider profile: no such file (${fixture("nope.yaml")})`,
    });
    const named = await loadProfile(fixture("bad-dialect.yaml"), {
      displayPath: "reelsmith.config.yaml",
    }).catch((error: ProfileError) => error);
    expect((named as ProfileError).diagnostics[0]?.file).toBe("reelsmith.config.yaml");
    expect((named as ProfileError).file).toBe("reelsmith.config.yaml");
    const directory = await refusal(fixture(""));
    expect(directory.diagnostics[0]?.message).toContain("it is a directory");
    const empty = await refusal(fixture("empty.yaml"));
    expect(empty.diagnostics[0]).toMatchObject({ code: "PROFILE_NOT_MAPPING" });
    expect(empty.diagnostics[0]?.message).toContain("found an empty document");
    const several = await refusal({
      source: "service: {}\n---\nvideo_models: {}\n",
      path: "x.yaml",
    });
    expect(several.diagnostics[0]).toMatchObject({ code: "YAML_MULTIPLE_DOCUMENTS", line: 2 });
  });

  it("masks secrets in YAML syntax errors too", async () => {
    const error = await refusal({
      source: "service:\n  token: tok-123456 ]\n",
      path: "inline.yaml",
    });
    expect(JSON.stringify(error.diagnostics)).not.toContain("tok-123456");
  });
});
