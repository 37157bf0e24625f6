import { readFile } from "node:fs/promises";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { describe, expect, inject, it } from "vitest";
import { publishedPackages } from "./support/published-packages.js";

describe.each(publishedPackages())("publint on the packed $name", (entry) => {
  it("finds nothing to report, suggestions included", async () => {
    const bytes = await readFile(inject("tarballs")[entry.name]!);
    const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    // The tarball pnpm made, so publint judges exactly what would be published.
    const { messages, pkg } = await publint({
      pack: { tarball },
      level: "suggestion",
      strict: true,
    });
    expect(messages.map((message) => `${message.code}: ${formatMessage(message, pkg)}`)).toEqual(
      [],
    );
    expect(pkg.name).toBe(entry.name);
  });
});
