import { describe, expect, it } from "vitest";
import {
  findSecretValues,
  looksLikeSecretKey,
  looksLikeSecretValue,
  maskSecretValues,
} from "./secret-keys.js";
import { validateProfile } from "./validate-profile.js";

const SECRET = "sk-test-SECRET-0123456789abcdef";

describe("secret names and values", () => {
  it("takes credentials, bearer and passwd for secret names, never api_key_env or max_tokens", () => {
    for (const name of ["credentials", "bearer", "passwd", "client_secret", "refresh_tokens"])
      expect(looksLikeSecretKey(name), name).toBe(true);
    for (const name of ["api_key_env", "max_tokens", "idempotency_keys", "key_frames"])
      expect(looksLikeSecretKey(name), name).toBe(false);
  });

  it("knows a key by its shape, and leaves model ids, sizes and URLs alone", () => {
    for (const value of [
      SECRET,
      "Bearer abcdefgh12345678",
      "ghp_0123456789abcdefABCDEF",
      "AKIAABCDEFGHIJKLMNOP",
      "Zx8kP2qL9mN4vB7cR1tY6wE3uI0oA5sD",
      "0123456789abcdef0123456789abcdef",
    ])
      expect(looksLikeSecretValue(value), value).toBe(true);
    for (const value of [
      "veo-3-fast",
      "stable-video-diffusion-img2vid-xt-1-1",
      "gemini-2.5-flash-preview-05-20",
      "https://api.example.com/v1/videos/abcdefABCDEF0123456789",
      "1280x720",
      "REELSMITH_API_KEY",
      "A paper boat leaves a child's hands on a rainy street",
    ])
      expect(looksLikeSecretValue(value), value).toBe(false);
  });

  it("masks keys inside a message", () => {
    expect(maskSecretValues(`got "${SECRET}"; expected a name`)).toBe(
      'got "<redacted>"; expected a name',
    );
    expect(maskSecretValues(`base_url: "http://u:${SECRET}@h:9/v1"`)).toBe(
      'base_url: "http://***@h:9/v1"',
    );
    expect(maskSecretValues("Authorization: Bearer abcdefgh12345678")).toBe(
      "Authorization: Bearer <redacted>",
    );
  });

  it("finds a key pasted anywhere, as a value or as a map key", () => {
    expect(
      findSecretValues({
        service: { api_key_env: ["MY_KEY", SECRET] },
        video_models: { m: { notes: { deeper: SECRET } }, [SECRET]: null },
      }),
    ).toEqual([
      "/service/api_key_env/1",
      "/video_models/m/notes/deeper",
      `/video_models/${SECRET}`,
    ]);
  });

  it("never quotes a key in a profile problem", () => {
    const problems = validateProfile({
      service: {
        api_key_env: ["MY_KEY", SECRET],
        credentials: "hunter2-is-a-password",
        bearer: "x",
      },
      video_models: { m: { notes: { deeper: { token: SECRET } } }, [SECRET]: { seconds: [4] } },
    });
    // Pointers locate the problem (a position is shown, never the pointer); messages are shown.
    const text = problems.map((problem) => problem.message).join("\n");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("hunter2");
    expect(problems.map((problem) => problem.pointer)).toEqual(
      expect.arrayContaining([
        "/service/credentials",
        "/service/bearer",
        "/service/api_key_env/1",
        "/video_models/m/notes/deeper/token",
      ]),
    );
  });
});

describe("profile values a run could not use", () => {
  it("refuses a base URL without a host or with credentials, and non-finite or negative prices", () => {
    const problems = validateProfile({
      service: { base_url: "http://" },
      video_models: {
        m: { price: { per_second: Number.POSITIVE_INFINITY, per_clip: -1 } },
        n: { price: { per_megapixel_second: Number.NaN } },
      },
    });
    expect(problems.map((problem) => [problem.pointer, problem.message])).toEqual(
      expect.arrayContaining([
        ["/service/base_url", '`service.base_url` is not a valid URL: "http://"'],
        [
          "/video_models/m/price/per_second",
          "`video_models.m.price.per_second`: got Infinity; expected a finite number",
        ],
        ["/video_models/m/price/per_clip", "`video_models.m.price.per_clip`: got -1; must be >= 0"],
        [
          "/video_models/n/price/per_megapixel_second",
          "`video_models.n.price.per_megapixel_second`: got NaN; expected a finite number",
        ],
      ]),
    );
    const withKey = validateProfile({ service: { base_url: `http://u:${SECRET}@h:1` } });
    expect(withKey).toEqual([
      expect.objectContaining({ pointer: "/service/base_url", code: "secret" }),
    ]);
    expect(JSON.stringify(withKey)).not.toContain(SECRET);
  });
});
