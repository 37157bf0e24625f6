export { type ContactSheetOptions, contactSheet } from "./contact-sheet.js";
export { type ExtractedFrame, type ExtractFrameOptions, extractFrame } from "./extract-frame.js";
export { pngSize } from "./png-size.js";
export { type ThumbnailOptions, thumbnail } from "./thumbnail.js";
