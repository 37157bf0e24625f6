export { concatListLine, escapeFilterValue, parseSize } from "./escape.js";
export {
  audioNormalizeChain,
  type FitMode,
  normalizedEncoderArgs,
  normalizedEncoderArgsFor,
  type VideoTarget,
  videoNormalizeChain,
} from "./normalize.js";
