import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { probe } from "@reelsmith/media";
import { HttpError } from "../errors/http-error.js";
import type { SimulatorContext } from "../server/context.js";

/** The length of audio the simulator did not make (ffprobe); a 400 when it is not audio. */
export async function probeDuration(simulator: SimulatorContext, bytes: Buffer): Promise<number> {
  const directory = path.join(simulator.dataDir, "transcriptions");
  await mkdir(directory, { recursive: true });
  const file = path.join(directory, randomBytes(8).toString("hex"));
  try {
    await writeFile(file, bytes);
    const info = await probe(file);
    if (!info.hasAudio) throw new Error("no audio stream");
    return Math.round((info.audioDuration ?? info.duration) * 1000) / 1000;
  } catch {
    throw new HttpError(
      400,
      "The file is not audio the service can read (no audio stream found).",
      { param: "file", code: "invalid_file" },
    );
  } finally {
    await rm(file, { force: true });
  }
}
