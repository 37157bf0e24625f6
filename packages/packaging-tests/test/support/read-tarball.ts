import { list, type ReadEntry } from "tar";

/** One file of a packed package. */
export interface TarballFile {
  /** Path inside the package, without the tarball's `package/` prefix. */
  path: string;
  /** Unix permission bits, e.g. 0o755. */
  mode: number;
  content: Buffer;
}

/**
 * Every file of an npm tarball, read into memory (packages here are a few hundred kB).
 *
 * @example
 * const files = await readTarball("reelsmith-core-0.1.0.tgz");
 * JSON.parse(files.get("package.json")!.content.toString("utf8")).name; // "@reelsmith/core"
 */
export async function readTarball(file: string): Promise<Map<string, TarballFile>> {
  const files = new Map<string, TarballFile>();
  await list({
    file,
    onReadEntry(entry: ReadEntry) {
      if (entry.type !== "File") {
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on("data", (chunk: Buffer) => chunks.push(chunk));
      entry.on("end", () => {
        const name = entry.path.replace(/^package\//, "");
        files.set(name, { path: name, mode: entry.mode ?? 0, content: Buffer.concat(chunks) });
      });
    },
  });
  return files;
}

/** The package.json inside a tarball. */
export interface PackedManifest {
  name: string;
  version: string;
  private?: boolean;
  type?: string;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  files?: string[];
  exports?: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  engines?: Record<string, string>;
}

/**
 * The package.json of a tarball read by `readTarball`.
 *
 * @example
 * packedManifest(await readTarball("reelsmith-core-0.1.0.tgz")).version; // "0.1.0"
 */
export function packedManifest(files: Map<string, TarballFile>): PackedManifest {
  const manifest = files.get("package.json");
  if (!manifest) throw new Error("the tarball has no package/package.json");
  return JSON.parse(manifest.content.toString("utf8")) as PackedManifest;
}
