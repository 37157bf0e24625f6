export { type KnownProbe, probeKnown, probeUnlessKnown } from "./known-probe.js";
export { nominalRate } from "./nominal-rate.js";
export { parseRate } from "./parse-rate.js";
export { type MediaInfo, probe } from "./probe.js";
