import { defineConfig, devices } from '@playwright/test';
import { findChromium } from '../scripts/chromium.mjs';

const workers = Number(process.env.E2E_WORKERS ?? 2);
if (!Number.isInteger(workers) || workers < 1)
  throw new Error(`E2E_WORKERS must be a whole number of at least 1 (got "${process.env.E2E_WORKERS}")`);

/**
 * E2E tests drive the built app in the system Chromium against the real server, started by
 * global-setup.ts on a free port with a fresh data directory and demo accounts.
 */
export default defineConfig({
  testDir: './tests',
  // Own directory per run when several people run the suite on one machine.
  outputDir: process.env.E2E_OUTPUT_DIR ?? '../.test-output/e2e',
  globalSetup: './global-setup.ts',
  // One server; every story makes its own users and data (fixtures.ts ownAccount, runId), so the
  // tests run side by side, two at a time by default (E2E_WORKERS). A describe.serial block still
  // runs its tests in order in one worker.
  fullyParallel: true,
  workers,
  // One retry in CI: antd's animated dropdowns are occasionally slow on a loaded 2-core machine;
  // a retried test is reported as flaky, not hidden.
  retries: process.env.CI ? 1 : 0,
  // Two browsers and the server share two cores: a page or an answer may take twice as long as
  // with one story at a time (and longer when other work loads the machine).
  // Measured 2026-11-27: on this machine a story takes about twice as long as a week before
  // (page loads of 15 s under two workers), so the limits have room for that.
  timeout: 150_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  // The demo hospital story starts a server of its own that seeds hundreds of patients: on two
  // cores that starves the stories running beside it (seen in CI: two stories timing out while it
  // seeded). It runs alone, after the others (run it by itself with `--project demo --no-deps`).
  projects: [
    { name: 'stories', testIgnore: /demo-hospital\.spec\.ts/ },
    { name: 'demo', testMatch: /demo-hospital\.spec\.ts/, dependencies: ['stories'] },
  ],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1366, height: 860 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    // The app honours a system's reduced-motion setting (antd animates nothing then): menus,
    // dialogs and drawers open at once, so a story waits on no animation and the two cores do less.
    // E2E_MOTION=1 runs with animations, as most people see the app.
    reducedMotion: process.env.E2E_MOTION === '1' ? 'no-preference' : 'reduce',
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
