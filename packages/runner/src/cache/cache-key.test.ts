import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashFile } from "./cache-key.js";

describe("hashFile", () => {
  it("gives the sha256 of a small file (read whole) and of large ones (read a piece at a time)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-hash-"));
    const small = Buffer.from("a clip's bytes\n".repeat(100));
    // Varied bytes, the last piece short: the piece buffer read into again keeps bytes of the
    // piece before beyond what the last read filled, which must not count.
    const large = randomBytes(3 * (1 << 20) + 12_345);
    const whole = randomBytes(2 * (1 << 20));
    writeFileSync(join(dir, "small.bin"), small);
    writeFileSync(join(dir, "large.bin"), large);
    writeFileSync(join(dir, "whole.bin"), whole);
    const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
    expect(await hashFile(join(dir, "small.bin"))).toBe(sha(small));
    expect(await hashFile(join(dir, "large.bin"))).toBe(sha(large));
    expect(await hashFile(join(dir, "whole.bin"))).toBe(sha(whole));
    await expect(hashFile(join(dir, "missing.bin"))).rejects.toThrow(/ENOENT/);
  });
});
