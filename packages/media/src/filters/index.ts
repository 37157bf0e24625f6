export { concatListLine, escapeFilterValue, parseSize } from "./escape.js";
