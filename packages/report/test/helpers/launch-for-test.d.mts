/** Launches a given Chromium binary headless and answers its version. */
export function launchUnpacked(executablePath: string): Promise<string>;
