import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import {
  parseInteger,
  parsePort,
  parsePositiveInteger,
  parsePositiveNumber,
} from "./option-parsers.js";

describe("option parsers", () => {
  it("accept what they promise", () => {
    expect(parsePositiveInteger("4")).toBe(4);
    expect(parsePort("0")).toBe(0);
    expect(parsePositiveNumber("0.05")).toBe(0.05);
    expect(parseInteger("-3")).toBe(-3);
  });
  it("refuse the rest with a message saying what was expected", () => {
    expect(() => parsePositiveInteger("0")).toThrow(InvalidArgumentError);
    expect(() => parsePositiveInteger("2.5")).toThrow(/whole number from 1 up, got '2.5'/);
    expect(() => parsePort("70000")).toThrow(/port/);
    expect(() => parsePositiveNumber("-1")).toThrow(/greater than 0/);
    expect(() => parseInteger("x")).toThrow(/whole number/);
  });
});
