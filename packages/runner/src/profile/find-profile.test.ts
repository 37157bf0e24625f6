import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findProfile, PROFILE_FILE_NAME } from "./find-profile.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "reelsmith-find-profile-"));
  await mkdir(path.join(root, "project", "pipelines", "deep"), { recursive: true });
  await writeFile(path.join(root, "project", PROFILE_FILE_NAME), "service: {}\n");
  // A directory of the profile's name is not a profile.
  await mkdir(path.join(root, "project", "pipelines", PROFILE_FILE_NAME));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("findProfile", () => {
  it("takes --config first, then REELSMITH_CONFIG, relative to cwd", () => {
    const cwd = path.join(root, "project");
    expect(
      findProfile({ cwd, config: "other.yaml", env: { REELSMITH_CONFIG: "/etc/x.yaml" } }),
    ).toEqual({ path: path.join(cwd, "other.yaml"), from: "config" });
    expect(findProfile({ cwd, env: { REELSMITH_CONFIG: "conf/p.yaml" } })).toEqual({
      path: path.join(cwd, "conf", "p.yaml"),
      from: "REELSMITH_CONFIG",
    });
  });

  it("finds reelsmith.config.yaml in cwd or the nearest parent", () => {
    const expected = { path: path.join(root, "project", PROFILE_FILE_NAME), from: "search" };
    expect(findProfile({ cwd: path.join(root, "project"), env: {} })).toEqual(expected);
    expect(findProfile({ cwd: path.join(root, "project", "pipelines", "deep"), env: {} })).toEqual(
      expected,
    );
    expect(findProfile({ cwd: path.join(root, "project", "pipelines") })).toEqual(expected);
  });

  it("finds nothing when no directory up to the root holds one", () => {
    expect(findProfile({ cwd: root, env: { REELSMITH_CONFIG: "" } })).toBeUndefined();
  });
});
