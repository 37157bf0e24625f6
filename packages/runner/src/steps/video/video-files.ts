/**
 * Where a clip goes when the step names no `output`: `<step>/<index>.mp4`.
 * @example defaultClipPath("clips", 3) // "clips/3.mp4"
 */
export function defaultClipPath(stepId: string, index: number | string | undefined): string {
  return `${stepId}/${index ?? 0}.mp4`;
}
