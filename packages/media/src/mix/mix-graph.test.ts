import { describe, expect, it } from "vitest";
import { loudnorm } from "./mix-film-audio.js";
import { defaultDuck, mixGraph } from "./mix-graph.js";

const normalize =
  "aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo";

describe("mixGraph", () => {
  it("delays each narration, ducks the looped music on the voice bus and sums at unity", () => {
    const graph = mixGraph({
      seconds: 8,
      narration: [
        { input: 1, at: 0.5 },
        { input: 2, at: 4.25 },
      ],
      music: { input: 3, volume: 0.4, fadeIn: 1, fadeOut: 2, looped: true },
      clipAudio: { input: 0, volume: 0.2 },
      duck: defaultDuck,
      finish: ["loudnorm=I=-14"],
    }).split(";");
    const fitted = "apad,atrim=duration=8.000000,asetpts=PTS-STARTPTS";
    expect(graph).toEqual([
      `[1:a:0]${normalize},adelay=500|500,${fitted}[voice0]`,
      `[2:a:0]${normalize},adelay=4250|4250,${fitted}[voice1]`,
      "[voice0][voice1]amix=inputs=2:duration=first:dropout_transition=0,volume=2,asplit=2[voice][key]",
      `[3:a:0]${normalize},volume=0.4,atrim=duration=8.000000,asetpts=PTS-STARTPTS,afade=t=in:st=0:d=1,afade=t=out:st=6.000000:d=2[bed]`,
      "[bed][key]sidechaincompress=threshold=0.02:ratio=10:attack=20:release=300[music]",
      `[0:a:0]${normalize},volume=0.2,${fitted}[clips]`,
      "[voice][music][clips]amix=inputs=3:duration=first:dropout_transition=0,volume=3,loudnorm=I=-14[mix]",
    ]);
  });

  it("pads music that is not looped and mixes it undisturbed without a voice", () => {
    const graph = mixGraph({
      seconds: 2,
      narration: [],
      music: { input: 1, volume: 1, fadeIn: 0, fadeOut: 0, looped: false },
      duck: defaultDuck,
    });
    expect(graph).toBe(
      `[1:a:0]${normalize},volume=1,apad,atrim=duration=2.000000,asetpts=PTS-STARTPTS[music];[music]anull[mix]`,
    );
  });

  it("refuses to mix nothing", () => {
    expect(() => mixGraph({ seconds: 2, narration: [] })).toThrow(/narration, music or/);
  });
});

describe("loudnorm", () => {
  it("measures, then applies the measurement linearly", () => {
    const target = { integrated: -14, truePeak: -1.5, lra: 11 };
    expect(loudnorm(target)).toBe("loudnorm=I=-14:TP=-1.5:LRA=11:print_format=json");
    expect(loudnorm(target, { integrated: -20.5, truePeak: -6, range: 4.2, threshold: -31 })).toBe(
      "loudnorm=I=-14:TP=-1.5:LRA=11:measured_I=-20.5:measured_TP=-6:measured_LRA=4.2:measured_thresh=-31:linear=true:print_format=json",
    );
  });
});
