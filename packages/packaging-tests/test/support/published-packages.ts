import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The root of the workspace these tests pack from. */
export const workspaceRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** A package a user installs, as found in the workspace. */
export interface PublishedPackage {
  /** npm name, e.g. `@reelsmith/core`. */
  name: string;
  /** Folder under `packages/`, e.g. `core`. */
  folder: string;
  /** Absolute path of the package's folder. */
  dir: string;
  /** Version in its package.json: what `workspace:` specifiers on it become when packed. */
  version: string;
}

/**
 * Every package of the workspace that is published (not `"private": true`), in the order
 * they depend on each other.
 *
 * @example
 * publishedPackages().map((entry) => entry.name); // ["@reelsmith/core", "@reelsmith/media", …]
 */
export function publishedPackages(): PublishedPackage[] {
  const folders = [
    "core",
    "media",
    "simulator",
    "runner",
    "report",
    "studio",
    "distributed",
    "cli",
  ];
  return folders.map((folder) => {
    const dir = path.join(workspaceRoot, "packages", folder);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
      private?: boolean;
    };
    if (manifest.private) throw new Error(`packages/${folder} is private; it is not published`);
    return { name: manifest.name, folder, dir, version: manifest.version };
  });
}
