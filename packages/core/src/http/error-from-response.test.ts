import { describe, expect, it } from "vitest";
import { parseErrorBody } from "./error-from-response.js";

describe("parseErrorBody", () => {
  it("reads the OpenAI-style error object", () => {
    expect(parseErrorBody('{"error":{"message":"bad","param":"seconds","code":"x"}}')).toEqual({
      message: "bad",
      param: "seconds",
      code: "x",
    });
  });

  it("reads FastAPI's { detail } as a string or as a list of { loc, msg, type }", () => {
    expect(parseErrorBody('{"detail":"Unauthorized"}')).toEqual({ message: "Unauthorized" });
    expect(
      parseErrorBody(
        JSON.stringify({
          detail: [
            { loc: ["body", "duration"], msg: "must be 5 or 10", type: "literal_error" },
            { loc: ["body", "prompt"], msg: "required", type: "missing" },
          ],
        }),
      ),
    ).toEqual({
      message: "duration: must be 5 or 10; prompt: required",
      param: "duration",
      code: "literal_error",
    });
  });

  it("reads ElevenLabs' { detail: { status, message } }, its status as the code", () => {
    expect(
      parseErrorBody(
        '{"detail":{"status":"too_many_concurrent_requests","message":"Too many requests."}}',
      ),
    ).toEqual({ message: "Too many requests.", code: "too_many_concurrent_requests" });
  });
});
