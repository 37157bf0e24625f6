import { describe, expect, it } from "vitest";
import {
  isInstruction,
  nounPhrases,
  sceneTitle,
  storyOf,
  storyTitle,
  titleCase,
} from "./story-text.js";

describe("story text", () => {
  it("tells instructions from story sentences", () => {
    expect(isInstruction("Split the story above into 4 scenes.")).toBe(true);
    expect(isInstruction("Give this story a short title: A fox.")).toBe(true);
    expect(isInstruction("The scenes below are short.")).toBe(true);
    expect(isInstruction("A fox finds a lantern in the snow.")).toBe(false);
    expect(storyOf("A fox runs. It jumps.\n\nSplit the story above into 2 scenes.")).toBe(
      "A fox runs. It jumps.",
    );
    expect(storyOf("Split into 2 scenes: A fox runs. It jumps.")).toBe("A fox runs. It jumps.");
  });

  it("finds noun phrases after determiners, leaving out a verb before the next one", () => {
    expect(nounPhrases("A paper boat leaves a child's hands on a rainy street.")).toEqual([
      "paper boat",
      "child's hands",
      "rainy street",
    ]);
    expect(nounPhrases("A big red balloon floats over the town.")).toEqual([
      "big red balloon",
      "town",
    ]);
  });

  it("titles scenes by their subject, else their most specific phrase, and stories by both ends", () => {
    expect(sceneTitle("A paper boat leaves a child's hands on a rainy street.")).toBe(
      "The Paper Boat",
    );
    expect(sceneTitle("It rides the gutter past a sleeping cat.")).toBe("The Sleeping Cat");
    expect(sceneTitle("It follows the light through the forest.")).toBe("The Forest");
    expect(storyTitle("A fox finds a lantern. It comes out on a sunlit lake at dawn.")).toBe(
      "The Fox and the Sunlit Lake",
    );
    expect(titleCase("the sunlit lake at dawn")).toBe("The Sunlit Lake at Dawn");
  });
});
