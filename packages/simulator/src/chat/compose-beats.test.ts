import { describe, expect, it } from "vitest";
import { composeBeats, detailsOf, leadsFor } from "./compose-beats.js";
import { splitClauses } from "./split-clauses.js";
import { keywordsOf } from "./text-analysis.js";

const fox = "A fox crosses a frozen river at night.";

describe("composeBeats", () => {
  it("sees one sentence through another shot, detail and moment for every item", () => {
    const beats = composeBeats({ sentences: [fox], count: 3, kind: "shots" });
    expect(beats.map((beat) => beat.text)).toEqual([
      "Wide shot of the fox: A fox crosses a frozen river at night.",
      "Moments later, close-up on the frozen river: A fox crosses a frozen river at night.",
      "In the end, the camera follows the fox: A fox crosses a frozen river at night.",
    ]);
    expect(beats.map((beat) => beat.title)).toEqual([
      "The Fox, Wide Shot",
      "The Frozen River, Close-Up",
      "The Fox, Following",
    ]);
    for (const beat of beats) expect(beat.base).toBe(fox);
  });

  it.each([4, 6, 12, 100, 5000])(
    "gives %i items that all differ and keep the story whole",
    (count) => {
      const beats = composeBeats({ sentences: [fox], count, kind: "shots" });
      expect(beats).toHaveLength(count);
      expect(new Set(beats.map((beat) => beat.text)).size).toBe(count);
      expect(new Set(beats.map((beat) => beat.title)).size).toBe(count);
      for (const beat of beats) expect(beat.text).toContain(fox);
    },
  );

  it("splits long sentences at their clauses before repeating any", () => {
    const beats = composeBeats({
      sentences: ["A fox crosses a frozen river, and it leaps onto the far bank."],
      count: 2,
      kind: "shots",
    });
    expect(beats.map((beat) => beat.text)).toEqual([
      "A fox crosses a frozen river.",
      "It leaps onto the far bank.",
    ]);
  });

  it("keeps contiguous groups when the sentences are enough, and numbers repeated ones", () => {
    const boat = "A paper boat leaves a child's hands.";
    const gutter = "It rides the gutter past a sleeping cat.";
    const drain = "It tumbles down a drain.";
    expect(composeBeats({ sentences: [boat, gutter, drain], count: 2, kind: "shots" })).toEqual([
      { base: boat, text: boat, title: "The Paper Boat" },
      { base: `${gutter} ${drain}`, text: `${gutter} ${drain}`, title: "The Sleeping Cat" },
    ]);
    const same = composeBeats({ sentences: [boat, boat], count: 2, kind: "shots" });
    expect(same.map((beat) => beat.text)).toEqual([boat, `${boat} (2)`]);
    expect(same.map((beat) => beat.title)).toEqual(["The Paper Boat", "The Paper Boat (2)"]);
  });

  it("turns its shots with the seed, deterministically, and uses plain angles for other lists", () => {
    const first = composeBeats({ sentences: [fox], count: 4, kind: "shots", seed: 5 });
    expect(composeBeats({ sentences: [fox], count: 4, kind: "shots", seed: 5 })).toEqual(first);
    expect(first).not.toEqual(composeBeats({ sentences: [fox], count: 4, kind: "shots", seed: 0 }));
    const plain = composeBeats({ sentences: ["Bread and cheese."], count: 3, kind: "angles" });
    expect(plain.map((beat) => beat.text)).toEqual([
      "An overview of the bread: Bread and cheese.",
      "Moments later, a closer look at the cheese: Bread and cheese.",
      "In the end, more about the bread: Bread and cheese.",
    ]);
    expect(leadsFor("scenes Split the story above into 6 scenes.")).toBe("shots");
    expect(leadsFor("items List 3 things for a picnic.")).toBe("angles");
  });

  it("finds details in the story's own words", () => {
    expect(detailsOf(fox)).toEqual(["fox", "frozen river"]);
    expect(detailsOf("It hides from the hunter at night.")).toEqual(["hunter", "night"]);
    expect(detailsOf("Snow falls quietly.")).toEqual(["snow", "falls", "quietly"]);
    for (const beat of composeBeats({ sentences: [fox], count: 30, kind: "shots" }))
      expect(keywordsOf(fox).some((word) => beat.title.toLowerCase().includes(word))).toBe(true);
  });
});

describe("splitClauses", () => {
  it("cuts where an independent clause begins, and nowhere else", () => {
    expect(splitClauses("A fox crosses a frozen river, and it leaps onto the far bank.")).toEqual([
      "A fox crosses a frozen river.",
      "It leaps onto the far bank.",
    ]);
    expect(
      splitClauses("At night, the fox runs — the ice cracks under its paws; then it stops!"),
    ).toEqual(["At night, the fox runs!", "The ice cracks under its paws!", "Then it stops!"]);
    expect(splitClauses("A fox, tired and cold, crosses the river.")).toEqual([
      "A fox, tired and cold, crosses the river.",
    ]);
    expect(splitClauses("A fox runs and jumps over the log.")).toEqual([
      "A fox runs and jumps over the log.",
    ]);
  });
});
