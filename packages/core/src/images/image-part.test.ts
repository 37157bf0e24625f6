import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InvalidRequestError } from "../errors/index.js";
import { imagePart } from "./image-part.js";

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe("imagePart", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("encodes bytes as a data URI, sniffing the type", async () => {
    const part = await imagePart(png);
    expect(part).toEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${Buffer.from(png).toString("base64")}` },
    });
    expect((await imagePart(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).image_url.url).toMatch(
      /^data:image\/jpeg;base64,/,
    );
  });

  it("reads a file, using the extension when the bytes say nothing, and honours mime", async () => {
    dir = await mkdtemp(join(tmpdir(), "reelsmith-image-"));
    const file = join(dir, "picture.webp");
    await writeFile(file, Buffer.from("????"));
    expect((await imagePart(file)).image_url.url).toBe(
      `data:image/webp;base64,${Buffer.from("????").toString("base64")}`,
    );
    expect((await imagePart(file, "image/gif")).image_url.url).toMatch(/^data:image\/gif;base64,/);
  });

  it("passes URLs through and rejects unknown bytes", async () => {
    expect((await imagePart("https://cdn.example/x.png")).image_url.url).toBe(
      "https://cdn.example/x.png",
    );
    await expect(imagePart(Uint8Array.from([1, 2, 3]))).rejects.toBeInstanceOf(InvalidRequestError);
  });
});
