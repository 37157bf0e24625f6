import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashFile } from "./cache-key.js";

describe("hashFile", () => {
  it("gives the sha256 of a small file (read whole) and of a large one (streamed)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-hash-"));
    const small = Buffer.from("a clip's bytes\n".repeat(100));
    const large = Buffer.alloc((1 << 20) + 12_345, 7);
    writeFileSync(join(dir, "small.bin"), small);
    writeFileSync(join(dir, "large.bin"), large);
    const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
    expect(await hashFile(join(dir, "small.bin"))).toBe(sha(small));
    expect(await hashFile(join(dir, "large.bin"))).toBe(sha(large));
    await expect(hashFile(join(dir, "missing.bin"))).rejects.toThrow(/ENOENT/);
  });
});
