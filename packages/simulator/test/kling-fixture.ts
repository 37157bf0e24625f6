import { SignJWT } from "jose";

/** The Kling model the tests use, as Kling's API names it. */
export const klingModel = "kling-v2-1";

/** The simulator's Kling key: `<access key>:<secret key>`. */
export const accessKey = "ak-test-0123456789";
export const secretKey = "sk-test-abcdefghijklmnop";
export const klingKey = `${accessKey}:${secretKey}`;

/** A provider profile as YAML parses it: Kling's API, one model priced per second. */
export function klingProfile(): Record<string, unknown> {
  return {
    service: {
      dialect: "kling",
      base_url: "https://api-singapore.klingai.com",
      api_key_env: ["KLING_ACCESS_KEY", "KLING_SECRET_KEY"],
    },
    video_models: {
      [klingModel]: {
        seconds: [5, 10],
        sizes: ["1280x720", "720x1280", "720x720"],
        image: true,
        params: { negative_prompt: "string", cfg_scale: "number", mode: "string" },
        price: { per_second: 7 },
      },
    },
  };
}

/** A Kling token made by `jose`, as Kling's docs make it (claims and key overridable). */
export async function joseToken(
  claims: { iss?: string; exp?: number; nbf?: number } = {},
  secret = secretKey,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(claims.iss ?? accessKey)
    .setExpirationTime(claims.exp ?? now + 1800)
    .setNotBefore(claims.nbf ?? now - 5)
    .sign(new TextEncoder().encode(secret));
}
