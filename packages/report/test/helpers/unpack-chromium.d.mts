/** The directory Chromium lives in once unpacked, under the temp directory of this moment. */
export function chromiumDirectory(): string;
/** The path of the unpacked `chromium` binary, unpacking it first when no process has yet. */
export function unpackChromium(): Promise<string>;
