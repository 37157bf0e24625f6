import { describe, expect, it } from "vitest";
import { serviceAccount } from "./service.js";

describe("serviceAccount", () => {
  it("never keeps a base URL that holds a key, nor shows the key when refusing it", () => {
    const secret = "sk-test-SECRET-0123456789abcdef";
    expect(() => serviceAccount(`http://user:${secret}@127.0.0.1:9`, {})).toThrow(
      /without credentials: the base URL holds credentials \(http:\/\/\*\*\*@127\.0\.0\.1:9\/\)/,
    );
    try {
      serviceAccount(`http://user:${secret}@127.0.0.1:9`, {});
    } catch (error) {
      expect(String(error)).not.toContain(secret);
    }
    expect(serviceAccount("http://127.0.0.1:9/", { account: "a" }).baseURL).toBe(
      "http://127.0.0.1:9",
    );
  });
});
