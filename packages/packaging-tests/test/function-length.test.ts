import { describe, expect, it } from "vitest";
import { longFunctions } from "../../../scripts/long-functions.mjs";

// No function of any package's sources spans more than 120 lines: a longer one is split into
// named steps. `node scripts/long-functions.mjs` lists the offenders with their places.
describe("function length", () => {
  it("finds long functions when the limit is low (the check reads the sources)", () => {
    expect(longFunctions(60).length).toBeGreaterThan(0);
  });

  it("holds every function of every package to 120 lines", () => {
    const long = longFunctions(120).map(
      (entry) => `${entry.file}:${entry.line} ${entry.name} is ${entry.lines} lines`,
    );
    expect(long, "split these into named steps of at most 120 lines each").toEqual([]);
  });
});
