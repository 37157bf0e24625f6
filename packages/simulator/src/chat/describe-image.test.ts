import { describe, expect, it } from "vitest";
import { makeJpegHeader, makePng } from "../../test/helpers.js";
import { describeImage, imageFacts } from "./describe-image.js";

describe("imageFacts / describeImage", () => {
  it("reads PNG and JPEG dimensions from the header", () => {
    expect(imageFacts(makePng(300, 120), "image/png")).toMatchObject({
      format: "png",
      width: 300,
      height: 120,
    });
    expect(imageFacts(makeJpegHeader(1024, 768), "image/jpeg")).toMatchObject({
      format: "jpeg",
      width: 1024,
      height: 768,
    });
    expect(imageFacts(Buffer.from("hello"), "image/png")).toMatchObject({
      format: undefined,
      bytes: 5,
    });
  });

  it("describes data URIs from their bytes and never fetches http URLs", () => {
    const png = makePng(10, 20);
    const text = describeImage(`data:image/png;base64,${png.toString("base64")}`, 1);
    expect(text).toBe(
      `Image 1 is a PNG image (image/png, ${png.length} bytes) of 10×20 pixels, in portrait orientation.`,
    );
    expect(describeImage(`data:image/jpeg;base64,${png.toString("base64")}`, 2)).toContain(
      "declared as image/jpeg",
    );
    expect(describeImage("https://example.com/a.png", 3)).toContain("did not fetch");
  });
});
