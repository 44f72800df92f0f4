/** The path of a Chromium executable, or undefined when none is installed. */
export function findChromium(): string | undefined;
