import { parseRate } from "./parse-rate.js";

const commonRates = [
  "24000/1001",
  "24/1",
  "25/1",
  "30000/1001",
  "30/1",
  "48/1",
  "50/1",
  "60000/1001",
  "60/1",
];

/**
 * The frame rate to encode a clip at. For constant-rate video that is its `r_frame_rate`;
 * for variable-rate video `r_frame_rate` can be a timebase-like 90000/1, so the average rate
 * is used instead, snapped to a common rate within 2 % (else rounded), at most 60.
 *
 * @example
 * nominalRate({ frameRate: "90000/1", averageFrameRate: "2997/100" }); // "30000/1001"
 */
export function nominalRate(info: { frameRate: string; averageFrameRate: string }): string {
  const declared = parseRate(info.frameRate);
  const average = parseRate(info.averageFrameRate);
  if (declared > 0 && (info.frameRate === info.averageFrameRate || average <= 0)) {
    return declared <= 120 ? info.frameRate : "60/1";
  }
  if (average <= 0) return "25/1";
  const snapped = commonRates.find((rate) => Math.abs(parseRate(rate) - average) / average < 0.02);
  if (snapped) return snapped;
  return `${Math.min(60, Math.max(1, Math.round(average)))}/1`;
}
