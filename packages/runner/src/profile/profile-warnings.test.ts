import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../pipeline/diagnostic.js";
import { loadProfile } from "./load-profile.js";
import { profileWarnings } from "./profile-warnings.js";

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

describe("profileWarnings", () => {
  it("warns once per video model whose limits or price are unknown, at the model's line", async () => {
    const loaded = await loadProfile(fixture("reference.yaml"));
    const warnings = profileWarnings(loaded);
    expect(warnings.map((w) => [w.line, w.column, w.severity, w.code])).toEqual([
      [15, 3, "warning", "PROFILE_UNKNOWN_LIMITS"],
      [17, 3, "warning", "PROFILE_UNKNOWN_LIMITS"],
    ]);
    expect(warnings[0]?.message).toBe(
      "video model `kling-2`: sizes and price are unknown (sizes are not checked before sending; no credit estimates or budgets for it)",
    );
    expect(warnings[1]?.message).toMatch(/^video model `new-model`: seconds, sizes and price are/);
    expect(warnings[1]?.hint).toBe(
      `fill in \`seconds\`, \`sizes\` and \`price\` of new-model in ${fixture("reference.yaml")} from the provider's documentation`,
    );
    expect(formatDiagnostic(warnings[1]!)).toContain("\n    new-model: ~\n    ^\n");
  });

  it("has nothing to say about a profile that knows its models' limits and prices", async () => {
    const loaded = await loadProfile(fixture("openai.yaml"));
    expect(profileWarnings(loaded)).toEqual([]);
  });
});
