import { looksLikeSecretKey } from "@reelsmith/core/profile";
import { describe, expect, it } from "vitest";
import { maskSecrets as mask } from "./mask-secrets.js";

const maskSecrets = (line: string) => mask(line, looksLikeSecretKey);

describe("maskSecrets", () => {
  it("masks the values of keys that look like secrets, in block and flow style", () => {
    expect(maskSecrets("  api_key: sk-live-123 # mine")).toBe("  api_key: <redacted> # mine");
    expect(maskSecrets('  "token": "abc def"')).toBe('  "token": <redacted>');
    expect(
      maskSecrets("service: { base_url: https://x.test, apiKey: sk-9, dialect: openai }"),
    ).toBe("service: { base_url: https://x.test, apiKey: <redacted>, dialect: openai }");
    expect(maskSecrets("  password: 'hunter2'")).toBe("  password: <redacted>");
  });

  it("leaves every other line as it is", () => {
    for (const line of [
      "  api_key_env: [REELSMITH_API_KEY]",
      "  base_url: https://api.example.com/v1",
      "  veo-3-fast: { seconds: [4, 8], price: { per_second: 2 } }",
      "  key_frames: true # not a key",
    ])
      expect(maskSecrets(line)).toBe(line);
  });
});
