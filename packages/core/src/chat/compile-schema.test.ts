import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../errors/index.js";
import { createAjv } from "./chat-json.js";
import { compileSchema } from "./compile-schema.js";

describe("compileSchema", () => {
  it("reuses one validator for equal schemas, even with an $id", () => {
    const ajv = createAjv();
    const make = () => ({ $id: "https://example.test/scene", type: "object", required: ["a"] });
    const first = compileSchema(ajv, make(), "schema");
    const second = compileSchema(ajv, make(), "schema");
    expect(second).toBe(first);
    expect(first({ a: 1 })).toBe(true);
    expect(first({})).toBe(false);
  });

  it("reports an invalid schema as InvalidRequestError naming the field", () => {
    let caught: unknown;
    try {
      compileSchema(createAjv(), { type: "no-such-type" }, "tools[1].parameters");
    } catch (error) {
      caught = error;
    }
    expect(InvalidRequestError.isInstance(caught)).toBe(true);
    expect((caught as InvalidRequestError).field).toBe("tools[1].parameters");
  });
});
