import type { Page } from '@playwright/test';
import { apiLogin, expect, type OwnAccount, restCall, screenshot, signIn, test } from '../fixtures';

/** The workbench pulls in the chart library: on a loaded 2-core machine its first paint takes a while. */
const SLOW = { timeout: 60_000 };

async function signInAndWait(page: Page, who: OwnAccount) {
  await signIn(page, who);
  await expect(page.getByTestId('greeting')).toBeVisible(SLOW);
}

const storedToken = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('fygo__ACCESS_TOKEN') ?? 'null') as string | null);

/** A one-minute, single-use sign-in hand-off code for the user of `key` (issue 15 item 1). */
async function handoffCode(key: string) {
  const r = await restCall<{ code: string; path: string }>('POST', 'session/handoff', key, {});
  expect(r.status).toBe(200);
  return r.body.data;
}

const peekStatus = async (code: string) =>
  (await restCall('POST', 'session/handoff/peek', undefined, { code })).status;

/** Where the page stood (its address) each time it called the hand-off API. */
async function recordAddressAtHandoffCalls(page: Page) {
  const seen: string[] = [];
  await page.route('**/api/v0.1/session/handoff/**', async (route) => {
    seen.push(await page.evaluate(() => window.location.href));
    await route.continue();
  });
  return seen;
}

/**
 * Each story signs its own users in and out (fixtures `ownAdmin`, `ownResearcher`): a switch or a
 * logout ends their sessions only, never those of a demo account other stories are using.
 */
test.describe('session', () => {
  test.describe.configure({ timeout: 240_000 });

  test('logout asks first, says exit successful, and the old key then gets 401', async ({
    page,
    ownAdmin,
  }) => {
    await signInAndWait(page, ownAdmin);
    const key = await page.evaluate(
      () => JSON.parse(localStorage.getItem('fygo__ACCESS_TOKEN') ?? 'null') as string,
    );
    expect((await restCall('GET', 'current_user', key)).status).toBe(200);

    await page.getByTestId('avatar-menu').hover();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await expect(page.getByText('确定要退出登录吗？')).toBeVisible();
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page.locator('.ant-message')).toContainText('退出成功');
    await expect(page).toHaveURL(/\/user\/login/);
    expect(await page.evaluate(() => localStorage.getItem('fygo__ACCESS_TOKEN'))).toBeNull();
    expect((await restCall('GET', 'current_user', key)).status).toBe(401);

    // The workbench now sends the person back to sign in.
    await page.goto('/dashboard/workplace');
    await expect(page).toHaveURL(/\/user\/login\?redirect=%2Fdashboard%2Fworkplace/);
  });

  test('a hand-off code in the address signs in, lands on the workbench and leaves the address first', async ({
    page,
    ownResearcher,
  }) => {
    const researcherKey = await apiLogin(ownResearcher);
    const { code, path } = await handoffCode(researcherKey);
    expect(path).toBe(`/?SessionKey=${code}`);
    const seen = await recordAddressAtHandoffCalls(page);
    await page.goto(`/data-lake/overviews?SessionKey=${encodeURIComponent(code)}`);
    await expect(page).toHaveURL(/\/dashboard\/workplace$/, SLOW);
    await expect(page.getByTestId('greeting')).toContainText('科研人员', SLOW);
    // The code had left the address before the page called the server with it.
    expect(seen.length).toBeGreaterThan(0);
    for (const href of seen) expect(href).not.toContain(code);
    // A new session of its own: neither the code nor the key of the session that asked for it.
    const token = await storedToken(page);
    expect(token).not.toBe(code);
    expect(token).not.toBe(researcherKey);
    expect((await restCall('GET', 'current_user', token!)).status).toBe(200);
    // Used once: it opens nothing again.
    expect(await peekStatus(code)).toBe(401);
  });

  test('hide_menu hides the menu', async ({ page, ownAdmin }) => {
    const { code } = await handoffCode(await apiLogin(ownAdmin));
    await page.goto(`/?SessionKey=${encodeURIComponent(code)}&hide_menu=1`);
    await expect(page.getByTestId('greeting')).toBeVisible(SLOW);
    await expect(page.locator('.ant-pro-sider-menu')).toHaveCount(0);
    await expect(page.getByTestId('multi-tabs')).toHaveCount(0);
  });

  test('signed in as A, a link with B’s code asks first; A stays signed in until A says switch', async ({
    page,
    ownAdmin,
    ownResearcher,
  }) => {
    await signInAndWait(page, ownAdmin);
    const adminToken = (await storedToken(page))!;
    const researcherKey = await apiLogin(ownResearcher);
    const { code } = await handoffCode(researcherKey);

    await page.goto(`/?SessionKey=${encodeURIComponent(code)}`);
    const dialog = page.getByRole('dialog', { name: '要切换登录账号吗？' });
    await expect(dialog).toBeVisible(SLOW);
    await expect(page).not.toHaveURL(/SessionKey/);
    await expect(dialog.getByTestId('handoff-current')).toHaveText(
      `您当前以 系统管理员（${ownAdmin.username}） 的身份登录“示范医院”。`,
    );
    await expect(dialog.getByTestId('handoff-next')).toHaveText(
      `这个链接会改以 科研人员（${ownResearcher.username}） 的身份登录“示范医院”。`,
    );
    // Staying is the default: the primary button, and the one that has the focus.
    const stay = dialog.getByTestId('handoff-stay');
    await expect(stay).toHaveText('保持以 系统管理员 登录');
    await expect(stay).toHaveClass(/ant-btn-primary/);
    await expect(stay).toBeFocused();
    await expect(dialog.getByTestId('handoff-switch')).not.toHaveClass(/ant-btn-primary/);
    await screenshot(page, 'handoff-confirm-zh-CN');
    // While the question is open, A's session is the browser's and the server's, and the code is unused.
    expect(await storedToken(page)).toBe(adminToken);
    expect((await restCall<{ UserName: string }>('GET', 'current_user', adminToken)).body.data.UserName).toBe(
      ownAdmin.username,
    );
    expect(await peekStatus(code)).toBe(200);

    // Enter on the focused button: stay.
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('greeting')).toContainText('系统管理员', SLOW);
    expect(await storedToken(page)).toBe(adminToken);
    expect(await peekStatus(code)).toBe(200);

    // A new link for B (a code lives one minute), and this time A switches.
    const second = (await handoffCode(researcherKey)).code;
    await page.goto(`/?SessionKey=${encodeURIComponent(second)}`);
    await expect(dialog).toBeVisible(SLOW);
    expect(await storedToken(page)).toBe(adminToken);
    await dialog.getByTestId('handoff-switch').click();
    await expect(page).toHaveURL(/\/dashboard\/workplace$/, SLOW);
    await expect(page.getByTestId('greeting')).toContainText('科研人员', SLOW);
    const researcherToken = (await storedToken(page))!;
    expect(researcherToken).not.toBe(adminToken);
    expect(
      (await restCall<{ UserName: string }>('GET', 'current_user', researcherToken)).body.data.UserName,
    ).toBe(ownResearcher.username);
    // A's session ended with the switch; the code is spent.
    expect((await restCall('GET', 'current_user', adminToken)).status).toBe(401);
    expect(await peekStatus(second)).toBe(401);
  });

  test('the question reads in English, and Escape keeps the current session', async ({
    page,
    ownAdmin,
    ownResearcher,
  }) => {
    await signInAndWait(page, ownResearcher);
    await page.evaluate(() => localStorage.setItem('fygo__LANGUAGE', JSON.stringify('en-US')));
    const token = await storedToken(page);
    const { code } = await handoffCode(await apiLogin(ownAdmin));
    await page.goto(`/?SessionKey=${encodeURIComponent(code)}`);
    const dialog = page.getByRole('dialog', { name: 'Switch accounts?' });
    await expect(dialog).toBeVisible(SLOW);
    await expect(dialog.getByTestId('handoff-current')).toHaveText(
      `You are signed in as 科研人员 (${ownResearcher.username}) in “示范医院”.`,
    );
    await expect(dialog.getByTestId('handoff-next')).toHaveText(
      `This link would sign you in as 系统管理员 (${ownAdmin.username}) in “示范医院” instead.`,
    );
    await expect(dialog.getByTestId('handoff-stay')).toHaveText('Stay signed in as 科研人员');
    await expect(dialog.getByTestId('handoff-switch')).toHaveText('Switch to 系统管理员');
    await screenshot(page, 'handoff-confirm-en-US');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect(await storedToken(page)).toBe(token);
    expect(await peekStatus(code)).toBe(200);
  });

  test('a used code and a raw session key in the address sign nobody in', async ({
    page,
    ownAdmin,
    ownResearcher,
  }) => {
    const researcherKey = await apiLogin(ownResearcher);
    const { code } = await handoffCode(researcherKey);
    expect((await restCall('POST', 'session/handoff/exchange', undefined, { code })).status).toBe(200);
    for (const value of [code, researcherKey]) {
      await page.goto(`/data-lake/overviews?SessionKey=${encodeURIComponent(value)}`);
      await expect(page.getByText('登录链接无法使用')).toBeVisible(SLOW);
      await expect(page.getByText('每个链接只能使用一次')).toBeVisible();
      await expect(page).not.toHaveURL(/SessionKey/);
      expect(await storedToken(page)).toBeNull();
    }
    await screenshot(page, 'handoff-refused-zh-CN');

    // Signed in already: a refused link says so and changes nothing.
    await signInAndWait(page, ownAdmin);
    const adminToken = await storedToken(page);
    await page.goto(`/?SessionKey=${encodeURIComponent(researcherKey)}`);
    await expect(page.locator('.ant-message')).toContainText('每个链接只能使用一次', SLOW);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByTestId('greeting')).toContainText('系统管理员', SLOW);
    expect(await storedToken(page)).toBe(adminToken);
  });

  test('a key the server no longer accepts logs out with the Unauthorized notice', async ({ page }) => {
    await page.goto('/user/login');
    await page.evaluate(() => localStorage.setItem('fygo__ACCESS_TOKEN', JSON.stringify('not-a-valid-key')));
    await page.goto('/dashboard/workplace');
    await expect(page).toHaveURL(/\/user\/login/);
    await expect(page.locator('.ant-notification')).toContainText('未授权');
  });
});
