export { type ContactSheetOptions, contactSheet } from "./contact-sheet.js";
export { type ThumbnailOptions, thumbnail } from "./thumbnail.js";
