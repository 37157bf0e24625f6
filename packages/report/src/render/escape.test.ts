import { describe, expect, it } from "vitest";
import { escapeHtml, formatDuration, relativeUrl } from "./escape.js";

describe("escaping", () => {
  it("escapes every character that could open a tag or leave an attribute", () => {
    expect(escapeHtml(`<a href='x' title="y">&</a>`)).toBe(
      "&lt;a href=&#39;x&#39; title=&quot;y&quot;&gt;&amp;&lt;/a&gt;",
    );
    expect(escapeHtml(undefined)).toBe("");
  });

  it("turns a file name into a relative URL that cannot become another scheme", () => {
    expect(relativeUrl("clips/scene 1.mp4")).toBe("clips/scene%201.mp4");
    expect(relativeUrl('javascript:alert("x")')).toBe("javascript%3Aalert(%22x%22)");
    expect(relativeUrl("a/<b>.mp4")).toBe("a/%3Cb%3E.mp4");
  });

  it("formats durations for people", () => {
    expect(formatDuration(850)).toBe("850 ms");
    expect(formatDuration(12_400)).toBe("12.4 s");
    expect(formatDuration(185_000)).toBe("3 min 05 s");
  });
});
