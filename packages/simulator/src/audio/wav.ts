/** Mono 16-bit PCM audio. */
export interface Pcm {
  sampleRate: number;
  samples: Int16Array;
}

/**
 * Read a mono or stereo 16-bit PCM WAV (the first channel), as Flite writes it.
 *
 * @example
 * const { sampleRate, samples } = readWav(await readFile("word.wav"));
 */
export function readWav(bytes: Buffer): Pcm {
  if (bytes.toString("ascii", 0, 4) !== "RIFF" || bytes.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("not a RIFF/WAVE file");
  }
  let offset = 12;
  let sampleRate = 0;
  let channels = 1;
  let bits = 16;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString("ascii", offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      channels = bytes.readUInt16LE(body + 2);
      sampleRate = bytes.readUInt32LE(body + 4);
      bits = bytes.readUInt16LE(body + 14);
    } else if (id === "data") {
      if (bits !== 16) throw new Error(`expected 16-bit PCM; got ${bits}-bit`);
      const end = Math.min(bytes.length, body + size);
      const frames = Math.floor((end - body) / (2 * channels));
      const samples = new Int16Array(frames);
      for (let frame = 0; frame < frames; frame += 1) {
        samples[frame] = bytes.readInt16LE(body + frame * 2 * channels);
      }
      return { sampleRate, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new Error("WAVE file without a data chunk");
}

/**
 * Encode mono 16-bit PCM as a WAV file.
 *
 * @example
 * const bytes = encodeWav({ sampleRate: 16000, samples });
 */
export function encodeWav(pcm: Pcm): Buffer {
  const data = pcm.samples.length * 2;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(pcm.sampleRate, 24);
  header.writeUInt32LE(pcm.sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, data)]);
}
