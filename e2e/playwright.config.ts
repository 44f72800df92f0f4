import { defineConfig, devices } from '@playwright/test';
import { findChromium } from '../scripts/chromium.mjs';

/**
 * E2E tests drive the built app in the system Chromium against the real server, started by
 * global-setup.ts on a free port with a fresh data directory and demo accounts.
 */
export default defineConfig({
  testDir: './tests',
  // Own directory per run when several people run the suite on one machine.
  outputDir: process.env.E2E_OUTPUT_DIR ?? '../.test-output/e2e',
  globalSetup: './global-setup.ts',
  // One server, shared accounts (a test changes a password): run the files one after another.
  fullyParallel: false,
  workers: 1,
  // One retry in CI: antd's animated dropdowns are occasionally slow on a loaded 2-core machine;
  // a retried test is reported as flaky, not hidden.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1366, height: 860 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: findChromium(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
