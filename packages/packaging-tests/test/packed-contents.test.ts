import { describe, expect, inject, it } from "vitest";
import { importedPackages } from "./support/bare-imports.js";
import { publishedPackages } from "./support/published-packages.js";
import { packedManifest, readTarball } from "./support/read-tarball.js";

const packages = publishedPackages();
const workspaceVersions = new Map(packages.map((entry) => [entry.name, entry.version]));

/**
 * What may ship: compiled code and its declarations (and V8's code cache of generated code),
 * schema files read at run time, docs.
 */
const allowedFile =
  /^(package\.json|README\.md|LICENSE|dist\/.+\.(js|cjs|d\.ts|v8cache)|schema\/.+\.json|bin\/[a-z-]+\.js)$/;

/** Files a package reads at run time by path, which therefore must be in its tarball. */
const readAtRunTime: Record<string, string[]> = {
  "@reelsmith/core": ["dist/profile/profile-validator.cjs"], // the build-time profile validator
  "@reelsmith/runner": [
    "schema/pipeline.schema.json", // validate-pipeline.ts requires it, and `init` points editors at it
    "dist/pipeline/standalone-validators.cjs", // the build-time ajv validators
    "dist/pipeline/standalone-validators.v8cache", // and their code cache (used when V8 takes it)
  ],
  "@reelsmith/cli": ["bin/reelsmith.js", "dist/bin.js", "dist/start-bundle.js"],
};

/** Packages a package finds with `require.resolve` at run time: they must be its dependencies. */
const resolvedAtRunTime: Record<string, string[]> = {
  "@reelsmith/media": [
    "dejavu-fonts-ttf",
    "@ffmpeg-installer/ffmpeg",
    "@ffprobe-installer/ffprobe",
  ],
  "@reelsmith/cli": ["@reelsmith/runner", "dotenv"],
};

function exportTargets(exportsField: unknown): string[] {
  if (typeof exportsField === "string") return [exportsField];
  if (exportsField && typeof exportsField === "object") {
    return Object.values(exportsField).flatMap(exportTargets);
  }
  return [];
}

describe.each(packages)("the packed $name", (entry) => {
  const load = async () => {
    const files = await readTarball(inject("tarballs")[entry.name]!);
    return { files, manifest: packedManifest(files) };
  };

  it("names its workspace dependencies by version, never by workspace:", async () => {
    const { manifest } = await load();
    expect(manifest.name).toBe(entry.name);
    const fields = [
      manifest.dependencies,
      manifest.optionalDependencies,
      manifest.peerDependencies,
      manifest.devDependencies,
    ];
    for (const field of fields) {
      for (const [name, range] of Object.entries(field ?? {})) {
        expect(range, `${name} in ${entry.name}`).not.toMatch(/^(workspace|link|file):/);
        if (workspaceVersions.has(name)) expect(range).toBe(workspaceVersions.get(name));
      }
    }
  });

  it("ships only compiled code, declarations, run-time schema files and the README", async () => {
    const { files } = await load();
    const unexpected = [...files.keys()].filter((file) => !allowedFile.test(file));
    expect(unexpected).toEqual([]);
    expect(files.has("README.md")).toBe(true);
    const tests = [...files.keys()].filter((file) => /(\.test\.|__fixtures__|\/test\/)/.test(file));
    expect(tests).toEqual([]);
    for (const file of readAtRunTime[entry.name] ?? []) expect(files.has(file), file).toBe(true);
  });

  it("exports every entry point with its types first and a condition require() accepts", async () => {
    const { files, manifest } = await load();
    expect(manifest.type).toBe("module");
    expect(manifest.engines?.node).toBe(">=20.19");
    const exportsField = manifest.exports ?? {};
    expect(Object.keys(exportsField)).toContain(".");
    for (const [subpath, target] of Object.entries(exportsField)) {
      if (typeof target === "string") continue; // JSON files: package.json, the schema
      expect(Object.keys(target), subpath).toEqual(["types", "default"]);
    }
    for (const target of [...exportTargets(exportsField), manifest.main, manifest.types]) {
      if (target) expect(files.has(target.replace(/^\.\//, "")), target).toBe(true);
    }
  });

  it("declares every package its code and declarations import", async () => {
    const { files, manifest } = await load();
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const undeclared = (resolvedAtRunTime[entry.name] ?? [])
      .filter((name) => !declared.has(name))
      .map((name) => `resolved at run time: ${name}`);
    for (const file of files.values()) {
      if (!/\.(js|cjs|d\.ts)$/.test(file.path)) continue;
      for (const name of importedPackages(file.content.toString("utf8"))) {
        if (name === entry.name || declared.has(name)) continue;
        undeclared.push(`${file.path} imports ${name}`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});

it("packs the cli with an executable reelsmith bin that starts with a node shebang", async () => {
  const files = await readTarball(inject("tarballs")["@reelsmith/cli"]!);
  // A committed launcher (linked by an install before any build) that starts dist/bin.js.
  expect(packedManifest(files).bin).toEqual({ reelsmith: "./bin/reelsmith.js" });
  const bin = files.get("bin/reelsmith.js")!;
  expect(bin.content.toString("utf8")).toContain('"../dist/bin.js"');
  expect(bin.content.toString("utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  expect(bin.mode & 0o111).not.toBe(0);
});
