import { describe, expect, it } from "vitest";
import { nominalRate } from "./nominal-rate.js";

describe("nominalRate", () => {
  it("keeps a constant frame rate as declared", () => {
    expect(nominalRate({ frameRate: "24/1", averageFrameRate: "24/1" })).toBe("24/1");
    expect(nominalRate({ frameRate: "30000/1001", averageFrameRate: "30000/1001" })).toBe(
      "30000/1001",
    );
  });

  it("uses the average of variable-rate video, snapped to a common rate", () => {
    expect(nominalRate({ frameRate: "90000/1", averageFrameRate: "2997/100" })).toBe("30000/1001");
    expect(nominalRate({ frameRate: "120/1", averageFrameRate: "5995/200" })).toBe("30000/1001");
    expect(nominalRate({ frameRate: "90000/1", averageFrameRate: "37/1" })).toBe("37/1");
    expect(nominalRate({ frameRate: "90000/1", averageFrameRate: "0/0" })).toBe("60/1");
    expect(nominalRate({ frameRate: "0/0", averageFrameRate: "0/0" })).toBe("25/1");
  });
});
