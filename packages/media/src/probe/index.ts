export { nominalRate } from "./nominal-rate.js";
export { parseRate } from "./parse-rate.js";
export { type MediaInfo, probe } from "./probe.js";
