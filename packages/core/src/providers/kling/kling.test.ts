import { jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { AuthenticationError } from "../../errors/authentication-error.js";
import { BadRequestError } from "../../errors/bad-request-error.js";
import { InvalidRequestError } from "../../errors/invalid-request-error.js";
import { PermissionDeniedError } from "../../errors/permission-denied-error.js";
import { RateLimitError } from "../../errors/rate-limit-error.js";
import { klingError } from "./kling-errors.js";
import { klingToken, splitKlingKey } from "./kling-jwt.js";
import { klingVideoProvider, parseKlingJobId } from "./kling-video.js";
import { klingAction, klingVideoInput, klingVideoProblems } from "./kling-video-input.js";

describe("Kling's video input", () => {
  it("maps prompt, seconds, size, image and the caller's key onto Kling's body", () => {
    expect(
      klingVideoInput(
        {
          model: "kling-v2-1",
          prompt: "a fox",
          seconds: " 10 ",
          size: "1280x720",
          image: "data:image/png;base64,AAAA",
          params: { negative_prompt: "blur", cfg_scale: 0.5, mode: "pro" },
        },
        "key-1",
      ),
    ).toEqual({
      model_name: "kling-v2-1",
      prompt: "a fox",
      duration: "10",
      image: "AAAA",
      negative_prompt: "blur",
      cfg_scale: 0.5,
      mode: "pro",
      external_task_id: "key-1",
    });
    expect(
      klingAction({ model: "kling-v2-1", prompt: "a", image_url: "https://x.test/a.png" }),
    ).toBe("image2video");
    expect(klingAction({ model: "kling-v2-1", prompt: "a" })).toBe("text2video");
    expect(
      klingVideoInput({ model: "kling-v2-1", prompt: "a", size: "720x720" }, "k").aspect_ratio,
    ).toBe("1:1");
  });

  it("finds every problem before anything is sent, naming the field", () => {
    expect(
      klingVideoProblems({
        model: "veo-3",
        prompt: " ",
        seconds: 7,
        size: "1024x768",
        params: { mode: "max", cfg_scale: 2, external_task_id: "x" },
      }).map((problem) => problem.field),
    ).toEqual([
      "model",
      "prompt",
      "seconds",
      "size",
      "params.mode",
      "params.cfg_scale",
      "params.external_task_id",
    ]);
    expect(klingVideoProblems({ model: "kling-v1-6", prompt: "a fox", seconds: "5" })).toEqual([]);
    let caught: unknown;
    try {
      klingVideoProvider.validate({ model: "kling-v2-1", prompt: "a fox", seconds: 7 }, undefined);
    } catch (error) {
      caught = error;
    }
    expect(InvalidRequestError.isInstance(caught)).toBe(true);
    expect((caught as InvalidRequestError).message).toContain(
      "`seconds: 7` is not a duration Kling takes: give 5 or 10",
    );
  });

  it("signs a token jose verifies with the secret key: iss the access key, 30 minutes", async () => {
    const header = klingVideoProvider.authHeaders("ak-1:sk-secret-1").authorization ?? "";
    const token = header.replace(/^Bearer /, "");
    const { payload, protectedHeader } = await jwtVerify(
      token,
      new TextEncoder().encode("sk-secret-1"),
      { issuer: "ak-1" },
    );
    expect(protectedHeader.alg).toBe("HS256");
    expect((payload.exp ?? 0) - (payload.nbf ?? 0)).toBe(1805);
    await expect(
      jwtVerify(
        klingToken("ak-1", "sk-secret-1", Date.now() - 3_600_000),
        new TextEncoder().encode("sk-secret-1"),
      ),
    ).rejects.toThrow(/exp/);
    expect(() => splitKlingKey("no-colon")).toThrow(/KLING_ACCESS_KEY and KLING_SECRET_KEY/);
  });

  it("reads Kling's error codes, not only the HTTP status", () => {
    const read = (status: number, code: number) =>
      klingError(
        status,
        JSON.stringify({ code, message: "m", request_id: "r" }),
        undefined,
        (t) => t,
      );
    expect(AuthenticationError.isInstance(read(401, 1004))).toBe(true);
    const balance = read(429, 1102);
    expect(PermissionDeniedError.isInstance(balance)).toBe(true);
    expect(balance?.isRetryable).toBe(false);
    expect(RateLimitError.isInstance(read(429, 1302))).toBe(true);
    expect(read(429, 1302)?.isRetryable).toBe(true);
    expect(BadRequestError.isInstance(read(400, 1201))).toBe(true);
    expect(read(500, 5000)?.isRetryable).toBe(true);
    expect(klingError(500, "not json", undefined, (t) => t)).toBeUndefined();
  });

  it("keeps the task's path in the job id, and says Kling cannot stop a task", async () => {
    expect(parseKlingJobId("image2video/8671")).toEqual({ action: "image2video", taskId: "8671" });
    expect(() => parseKlingJobId("8671")).toThrow(/text2video\/<task id>/);
    expect(klingVideoProvider.settlement).toEqual(["idempotency-key"]);
    expect(klingVideoProvider.keyParts).toEqual(["KLING_ACCESS_KEY", "KLING_SECRET_KEY"]);
    await expect(klingVideoProvider.cancel({} as never, "text2video/1", {})).rejects.toThrow(
      /no way to stop a task: text2video\/1 runs to its end/,
    );
  });
});
