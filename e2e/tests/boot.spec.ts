import { randomInt } from 'node:crypto';
import type { Page, Request } from '@playwright/test';
import {
  account,
  apiLogin,
  expect,
  runId,
  screenshot,
  signInToWorkbench,
  test,
  userWithOwnRole,
} from '../fixtures';

/**
 * The start of a page (issue 16): a full load asks for the current user and the menus together,
 * the page's own data does not wait for the menus, and the menus are revalidated by their
 * version (304) instead of downloaded again. And a 403 notice belongs to the page it was about.
 */

type Call = 'currentUser' | 'menus' | 'pageData';

const HOLD_LIMIT_MS = 60_000;

/** Which of the calls of interest a request is (envelope calls by their method). */
function callOf(r: Request): Call | null {
  const url = new URL(r.url());
  if (r.method() === 'GET' && url.pathname === '/api/v0.1/product_menus') return 'menus';
  if (r.method() !== 'POST' || !url.pathname.startsWith('/api/merchants/')) return null;
  let method: unknown;
  try {
    method = (r.postDataJSON() as { method?: unknown } | null)?.method;
  } catch {
    return null;
  }
  if (method === 'GetCurrentUser') return 'currentUser';
  if (method === 'GetProductMenusAndPermissions') return 'menus';
  if (method === 'GetList' && /merchantsuser$/i.test(url.pathname)) return 'pageData';
  return null;
}

interface Event {
  call: Call;
  kind: 'start' | 'answer';
  seq: number;
  status?: number;
  ifNoneMatch?: string;
}

/** Start and answer of each call of interest, in the order the browser reports them. */
function recordTimeline(page: Page) {
  const events: Event[] = [];
  let seq = 0;
  page.on('request', (r) => {
    const call = callOf(r);
    if (call) events.push({ call, kind: 'start', seq: seq++, ifNoneMatch: r.headers()['if-none-match'] });
  });
  page.on('response', (r) => {
    const call = callOf(r.request());
    if (call) events.push({ call, kind: 'answer', seq: seq++, status: r.status() });
  });
  const first = (call: Call, kind: Event['kind']) => events.find((e) => e.call === call && e.kind === kind);
  return { events, first, clear: () => events.splice(0) };
}

function signal() {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fired, fire };
}

/**
 * Holds the answer of one call until another call has started (or a generous limit passed, so a
 * page that waits for the held answer fails on its assertion, not on the test's time-out). The
 * limit is longer than any wait of the story: at 15 s a loaded CI machine let the menus through
 * before the page had drawn its data, and the skeleton the story looks for was gone.
 */
async function holdUntil(page: Page, held: Call, until: Promise<void>) {
  await page.route(
    (url) => url.pathname.startsWith('/api/'),
    async (route) => {
      if (callOf(route.request()) === held)
        await Promise.race([until, new Promise((resolve) => setTimeout(resolve, HOLD_LIMIT_MS))]);
      await route.fallback();
    },
  );
}

test('a full load asks for the user and the menus together, starts the page data beside them and revalidates the menus (304)', async ({
  page,
}) => {
  const admin = account('admin');
  test.slow();
  const line = recordTimeline(page);
  await signInToWorkbench(page, admin);
  const menu = page.locator('.ant-pro-sider-menu');
  await expect(menu).toContainText('系统设置');
  // The first load after sign-in has no kept menus: a full answer with its version.
  const firstMenus = line.first('menus', 'answer');
  expect(firstMenus?.status).toBe(200);
  expect(line.first('menus', 'start')?.ifNoneMatch).toBeUndefined();

  // A full reload of a page: the current user's answer waits until the menus request has
  // started, the menus' answer until the page's own data request has started.
  line.clear();
  const menusStarted = signal();
  const pageDataStarted = signal();
  const release = signal();
  page.on('request', (r) => {
    if (callOf(r) === 'menus') menusStarted.fire();
    if (callOf(r) === 'pageData') pageDataStarted.fire();
  });
  await holdUntil(page, 'currentUser', menusStarted.fired);
  await holdUntil(page, 'menus', release.fired);
  await page.goto('/system/user-manage');
  await Promise.race([pageDataStarted.fired, new Promise((resolve) => setTimeout(resolve, HOLD_LIMIT_MS))]);
  // The page shows its data while the menu still loads (its skeleton).
  await expect(page.getByRole('cell', { name: admin.username, exact: true })).toBeVisible();
  await expect(page.locator('.ant-pro-sider .ant-skeleton')).toBeVisible();
  await screenshot(page, 'boot-menus-loading-1440-zh');
  release.fire();
  await expect(menu).toContainText('系统设置');
  // The menu opens at the page's entry once it arrives.
  await expect(menu.getByRole('link', { name: '用户管理' })).toBeVisible();
  await expect(page.getByRole('cell', { name: admin.username, exact: true })).toBeVisible();

  const menusStart = line.first('menus', 'start');
  const menusAnswer = line.first('menus', 'answer');
  const userAnswer = line.first('currentUser', 'answer');
  const dataStart = line.first('pageData', 'start');
  expect(menusStart, 'the menus request').toBeDefined();
  expect(userAnswer, 'the current user answer').toBeDefined();
  expect(dataStart, 'the page data request').toBeDefined();
  expect(menusAnswer, 'the menus answer').toBeDefined();
  // Parallel, not a waterfall.
  expect(menusStart!.seq).toBeLessThan(userAnswer!.seq);
  expect(dataStart!.seq).toBeLessThan(menusAnswer!.seq);
  // The second load revalidates the kept menus: 304, nothing downloaded again.
  expect(menusStart!.ifNoneMatch).toMatch(/^"m[\w-]+"$/);
  expect(menusAnswer!.status).toBe(304);
  await screenshot(page, 'boot-menus-loaded-1440-zh');
});

test('while the menus load the page reads naturally in English and at 375 px', async ({ page }) => {
  const admin = account('admin');
  await signInToWorkbench(page, admin);
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  const release = signal();
  await holdUntil(page, 'menus', release.fired);
  await page.goto('/system/user-manage');
  await expect(page.getByRole('cell', { name: admin.username, exact: true })).toBeVisible();
  await screenshot(page, 'boot-menus-loading-1440-en');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'boot-menus-loading-375-en');
  release.fire();
  await expect(page.getByRole('cell', { name: admin.username, exact: true })).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.locator('.ant-pro-sider-menu')).toContainText('System settings');
});

test('a 禁止访问 notice belongs to its page: shown there, gone on the next page', async ({ page }) => {
  // A role of this story's own that holds the Users menu but none of its functions: the page
  // opens, and the server refuses its data (403).
  const run = runId();
  const adminKey = await apiLogin(account('admin'));
  const who = await userWithOwnRole(
    adminKey,
    { name: `E2E只看菜单${run}`, menuIds: [2102], funcIds: [] },
    {
      username: `e2e-menuonly-${run}`,
      password: `E2e#${String(randomInt(100_000_000)).padStart(8, '0')}x`,
      nickName: '只看菜单',
    },
  );

  await signInToWorkbench(page, who);
  const menu = page.locator('.ant-pro-sider-menu');
  await menu.getByText('系统设置', { exact: true }).click();
  await menu.getByRole('link', { name: '用户管理' }).click();
  await expect(page).toHaveURL(/\/system\/user-manage$/);
  const notice = page.locator('.ant-notification-notice');
  await expect(notice.first()).toContainText('禁止访问');
  await screenshot(page, 'boot-403-notice-1440-zh');
  // The pointer rests on the notice, which stops its own closing timer: only the page change
  // may take it away.
  await notice.first().hover();
  const logo = page.getByTestId('logo-link');
  await logo.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
  await expect(page.getByTestId('greeting')).toBeVisible();
  await expect(notice).toHaveCount(0);
  await screenshot(page, 'boot-403-notice-gone-1440-zh');
});
