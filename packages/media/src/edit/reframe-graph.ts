/** How {@link reframeFilter} fills a frame of another shape. */
export type ReframeMode = "crop" | "blur-pad";

/**
 * The `-filter_complex` graph (input `[0:v:0]`, output `[v]`) that brings a picture to
 * `width`×`height`: `crop` scales it to fill the frame and cuts the overflow around the
 * centre; `blur-pad` scales the whole picture to fit and lays it over a blurred copy of
 * itself scaled to fill (no black bars). `blur` is the Gaussian sigma in pixels of the
 * output (default 1/30 of its larger side).
 *
 * @example
 * reframeFilter({ width: 1080, height: 1920, mode: "blur-pad" });
 * // "[0:v:0]split=2[back][front];[back]scale=1080:1920:force_original_aspect_ratio=increase,crop=1080:1920,gblur=sigma=64[blurred];…"
 */
export function reframeFilter(target: {
  width: number;
  height: number;
  mode: ReframeMode;
  blur?: number;
}): string {
  const { width, height } = target;
  const fill = `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`;
  const square = "setsar=1,format=yuv420p";
  if (target.mode === "crop") return `[0:v:0]${fill},${square}[v]`;
  const sigma = target.blur ?? Math.round(Math.max(width, height) / 30);
  return [
    "[0:v:0]split=2[back][front]",
    `[back]${fill},gblur=sigma=${sigma}[blurred]`,
    // Even sizes keep the picture centred on 4:2:0 chroma.
    `[front]scale=w='2*trunc(min(${width}/iw,${height}/ih)*iw/2)':h='2*trunc(min(${width}/iw,${height}/ih)*ih/2)'[fitted]`,
    `[blurred][fitted]overlay=x=(W-w)/2:y=(H-h)/2,${square}[v]`,
  ].join(";");
}
