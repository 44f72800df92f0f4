// Where the system Chromium is: CHROMIUM_PATH when set, else the usual Debian/Ubuntu places.
// None is ever downloaded. Used by `npm test`, the Playwright config and the browser benchmarks.
import { existsSync } from 'node:fs';

const PLACES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
];

/** The path of a Chromium executable, or undefined when none is installed. */
export function findChromium() {
  return [process.env.CHROMIUM_PATH, ...PLACES].find((c) => Boolean(c) && existsSync(c));
}
