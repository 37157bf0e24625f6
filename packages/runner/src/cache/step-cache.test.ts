import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clearCache, listCache } from "./cache-admin.js";
import { cacheKey } from "./cache-key.js";
import { BUILT_IN_SERVICE, serviceIdentity } from "./service-identity.js";
import { restoreFromCache, storeInCache } from "./step-cache.js";

/** Kind names for the shared key: any kind's, the key of one is never another's. */
const KIND = "some-kind";
const OTHER_KIND = "other-kind";

describe("step cache", () => {
  it("keys on every parameter and on the contents of input files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-key-"));
    writeFileSync(join(dir, "a.png"), "one");
    const spec = { model: "m", prompt: "p", image: "a.png" };
    const on = {
      service: "https://api.example.com/v1",
      inputFiles: { image: "value", images: "value" },
    } as const;
    const k1 = await cacheKey(KIND, spec, dir, on);
    expect(await cacheKey(KIND, { image: "a.png", prompt: "p", model: "m" }, dir, on)).toBe(k1);
    expect(await cacheKey(KIND, { ...spec, seconds: 4 }, dir, on)).not.toBe(k1);
    expect(await cacheKey(OTHER_KIND, spec, dir, on)).not.toBe(k1);
    expect(
      await cacheKey(KIND, { ...spec, output: "x.mp4" }, dir, { ...on, ignore: ["output"] }),
    ).toBe(k1);
    // The same bytes elsewhere (another run's directory): the same request of the service.
    mkdirSync(join(dir, "runs", "r2"), { recursive: true });
    writeFileSync(join(dir, "runs", "r2", "key.png"), "one");
    const moved = { ...spec, image: join(dir, "runs", "r2", "key.png") };
    expect(await cacheKey(KIND, moved, dir, on)).toBe(k1);
    expect(await cacheKey(KIND, { ...spec, images: [{ path: "a.png" }] }, dir, on)).toBe(
      await cacheKey(KIND, { ...spec, images: [{ path: moved.image }] }, dir, on),
    );
    writeFileSync(join(dir, "a.png"), "two");
    expect(await cacheKey(KIND, spec, dir, on)).not.toBe(k1);
    // A field its kind does not name as a file is keyed as written: by its path.
    const byPath = { service: on.service };
    expect(await cacheKey(KIND, moved, dir, byPath)).not.toBe(
      await cacheKey(KIND, spec, dir, byPath),
    );
  });

  it("keys on the service that answers, so one service's results are never another's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-key-"));
    const spec = { model: "m", prompt: "p" };
    const keyOn = (service: string) => cacheKey(KIND, spec, dir, { service });
    const real = await keyOn(serviceIdentity("https://api.example.com/v1"));
    expect(await keyOn(serviceIdentity("https://other.example.com/v1"))).not.toBe(real);
    expect(await keyOn(serviceIdentity("https://api.example.com/v2"))).not.toBe(real);
    expect(await keyOn(serviceIdentity("http://127.0.0.1:4010"))).not.toBe(real);
    expect(await keyOn(BUILT_IN_SERVICE)).not.toBe(real);
    // Spellings of the same service are the same service.
    expect(await keyOn(serviceIdentity("HTTPS://API.example.com:443/v1/"))).toBe(real);
  });

  it("names a service by origin and path only: no credentials, query or fragment", () => {
    expect(serviceIdentity("https://user:secret-pw@API.Example.com:443/v1/?key=sk-1#frag")).toBe(
      "https://api.example.com/v1",
    );
    expect(serviceIdentity("http://127.0.0.1:4010/")).toBe("http://127.0.0.1:4010");
    expect(serviceIdentity("http://127.0.0.1:4011")).not.toBe(
      serviceIdentity("http://127.0.0.1:4010"),
    );
    expect(serviceIdentity("user:secret-pw@host/v1?key=sk-1")).not.toContain("secret");
    expect(serviceIdentity("ftp://user:secret-pw@host/v1/")).toBe("ftp://host/v1");
    expect(serviceIdentity(undefined)).toBe("");
  });

  it("stores outputs with their files and restores them into another run", async () => {
    const root = mkdtempSync(join(tmpdir(), "reelsmith-cache-"));
    const cacheDir = join(root, "cache");
    const run1 = join(root, "run1");
    mkdirSync(join(run1, "clips"), { recursive: true });
    const clip = join(run1, "clips", "0.mp4");
    writeFileSync(clip, "video bytes");
    await storeInCache(cacheDir, {
      key: "k".repeat(64),
      kind: "video",
      step: "clips",
      outputs: { file: clip, id: "video_1", credits: 4 },
      runDir: run1,
      summary: "reel-video-1: a cat",
    });
    const run2 = join(root, "run2");
    const hit = await restoreFromCache(cacheDir, "k".repeat(64), run2);
    expect(hit?.outputs).toEqual({ file: join(run2, "clips", "0.mp4"), id: "video_1", credits: 4 });
    expect(readFileSync(join(run2, "clips", "0.mp4"), "utf8")).toBe("video bytes");
    expect(await restoreFromCache(cacheDir, "x".repeat(64), run2)).toBeUndefined();
    expect(listCache({ cacheDir })).toMatchObject([{ kind: "video", step: "clips", bytes: 11 }]);
    expect(clearCache({ cacheDir }).entries).toBe(1);
    expect(listCache({ cacheDir })).toEqual([]);
    expect(existsSync(join(run2, "clips", "0.mp4"))).toBe(true);
  });

  it("never serves a blob whose bytes no longer match its hash, and drops it", async () => {
    const root = mkdtempSync(join(tmpdir(), "reelsmith-cache-"));
    const cacheDir = join(root, "cache");
    const run1 = join(root, "run1");
    mkdirSync(run1, { recursive: true });
    writeFileSync(join(run1, "0.mp4"), "good video bytes");
    const key = "d".repeat(64);
    await storeInCache(cacheDir, {
      key,
      kind: "video",
      step: "c",
      outputs: { file: join(run1, "0.mp4") },
      runDir: run1,
    });
    const [blob] = listFiles(join(cacheDir, "blobs"));
    const bytes = readFileSync(blob!);
    bytes[0] = bytes[0]! ^ 0xff;
    writeFileSync(blob!, bytes);
    const run2 = join(root, "run2");
    expect(await restoreFromCache(cacheDir, key, run2)).toBeUndefined();
    expect(existsSync(join(run2, "0.mp4"))).toBe(false);
    expect(existsSync(blob!)).toBe(false);
    expect(listCache({ cacheDir })).toEqual([]);
  });

  it("stores a result again over a damaged blob of the same hash, so the next hit is whole", async () => {
    const root = mkdtempSync(join(tmpdir(), "reelsmith-cache-"));
    const cacheDir = join(root, "cache");
    const run1 = join(root, "run1");
    mkdirSync(run1, { recursive: true });
    writeFileSync(join(run1, "0.mp4"), "whole video bytes");
    const store = (key: string) =>
      storeInCache(cacheDir, {
        key,
        kind: "video",
        step: "c",
        outputs: { file: join(run1, "0.mp4") },
        runDir: run1,
      });
    await store("f".repeat(64));
    const [blob] = listFiles(join(cacheDir, "blobs"));
    writeFileSync(blob!, "damaged video bytes");
    // Another request whose result has the same bytes (another worker, another key).
    await store("a".repeat(64));
    expect(readFileSync(blob!, "utf8")).toBe("whole video bytes");
    const hit = await restoreFromCache(cacheDir, "f".repeat(64), join(root, "run2"));
    expect(readFileSync(String(hit?.outputs.file), "utf8")).toBe("whole video bytes");
  });

  it("keeps the cache's bytes apart from a run's files, in both directions", async () => {
    const root = mkdtempSync(join(tmpdir(), "reelsmith-cache-"));
    const cacheDir = join(root, "cache");
    const run1 = join(root, "run1");
    mkdirSync(run1, { recursive: true });
    const clip = join(run1, "0.mp4");
    writeFileSync(clip, "original clip");
    const key = "e".repeat(64);
    await storeInCache(cacheDir, {
      key,
      kind: "video",
      step: "c",
      outputs: { file: clip },
      runDir: run1,
    });
    // An edit in place (same inode) of the stored run's clip.
    writeFileSync(clip, "edited by hand");
    const run2 = join(root, "run2");
    const hit = await restoreFromCache(cacheDir, key, run2);
    expect(readFileSync(String(hit?.outputs.file), "utf8")).toBe("original clip");
    writeFileSync(String(hit?.outputs.file), "edited again");
    const run3 = join(root, "run3");
    const again = await restoreFromCache(cacheDir, key, run3);
    expect(readFileSync(String(again?.outputs.file), "utf8")).toBe("original clip");
    const [blob] = listFiles(join(cacheDir, "blobs"));
    expect(statSync(blob!).nlink).toBe(1);
  });
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}
