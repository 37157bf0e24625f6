import { ReelsmithError } from "@reelsmith/core/errors";
import { describe, expect, it } from "vitest";
import { parseFaultSpec } from "../faults/parse-fault-spec.js";
import { FaultSpecError } from "./fault-spec-error.js";
import { HttpError } from "./http-error.js";
import { SimulatorError } from "./simulator-error.js";

describe("SimulatorError", () => {
  it("is a ReelsmithError, recognised per class by its marker", () => {
    const error = captured(() => parseFaultSpec("nonsense"));
    expect(FaultSpecError.isInstance(error)).toBe(true);
    expect(SimulatorError.isInstance(error)).toBe(true);
    expect(ReelsmithError.isInstance(error)).toBe(true);
    expect(HttpError.isInstance(error)).toBe(false);
    expect((error as FaultSpecError).code).toBe("fault_spec_invalid");
    // Bad input: a command given it exits 2, as for any bad flag.
    expect((error as FaultSpecError).category).toBe("invalid");
  });

  it("an HTTP error keeps its code and body", () => {
    const error = HttpError.badRequest("`seconds` must be at most 10", "seconds");
    expect(HttpError.isInstance(error)).toBe(true);
    expect(error.toBody().error).toEqual({
      message: "`seconds` must be at most 10",
      type: "invalid_request_error",
      param: "seconds",
      code: "invalid_value",
    });
    expect(error.toJSON()).toMatchObject({ code: "invalid_value", category: "failed" });
  });
});

function captured(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}
