import { describe, expect, it } from "vitest";
import { chargeInUnit, exactAmount } from "./charge-in-unit.js";

describe("chargeInUnit", () => {
  it("bills credits whole, rounded up, without floating point noise", () => {
    expect(chargeInUnit(1.8)).toBe(2);
    expect(chargeInUnit(1.8, "credits")).toBe(2);
    expect(chargeInUnit(1.1 * 100)).toBe(110);
    expect(chargeInUnit(0)).toBe(0);
  });

  it("keeps another unit's exact amount (cents stay cents)", () => {
    expect(chargeInUnit(0.05, "usd")).toBe(0.05);
    expect(chargeInUnit((15 * 20) / 1000, "usd")).toBe(0.3);
    expect(chargeInUnit(0.1 + 0.2, "eur")).toBe(0.3);
    expect(chargeInUnit(57, "characters")).toBe(57);
  });

  it("drops what floating point adds to a sum", () => {
    expect(exactAmount(0.1 + 0.2)).toBe(0.3);
    expect(exactAmount(36.15 - 36)).toBe(0.15);
  });
});
