import { expect, runId, screenshot, signInToWorkbench, test } from '../fixtures';

/**
 * Password guesses are counted per user name and address (issue 15 item 5). A name that matches
 * no account is used (this attempt's own), so no account of the other stories waits; the answers
 * are the same as for a real account (the API tests prove that).
 */
test('after five wrong passwords the login page says how long this address waits, in both languages', async ({
  page,
}) => {
  const name = `nobody-${runId()}`;
  const attempt = async (user: string, password: string) => {
    await page.getByPlaceholder(/用户名|User name/).fill(user);
    await page.getByPlaceholder(/^密码$|^Password$/).fill(password);
    await page.getByRole('button', { name: /登\s*录|Sign in|Log in/ }).click();
  };
  await page.goto('/user/login');
  for (let i = 0; i < 5; i++) {
    await attempt(name, `Wrong#Pass${i}`);
    await expect(page.getByTestId('login-error')).toHaveText('用户名或密码错误');
    await page.goto('/user/login');
  }
  await attempt(name, 'Wrong#Pass5');
  await expect(page.getByTestId('login-error')).toHaveText(/^密码错误次数过多，请 (2\d|30) 秒后再试$/);
  await expect(page).toHaveURL(/\/user\/login/);
  await screenshot(page, 'login-wait-zh-CN');

  await page.evaluate(() => localStorage.setItem('fygo__LANGUAGE', JSON.stringify('en-US')));
  await page.goto('/user/login');
  await attempt(name, 'Wrong#Pass6');
  await expect(page.getByTestId('login-error')).toHaveText(
    /^Too many wrong passwords; try again in (1\d|2\d|30) seconds$/,
  );
  await screenshot(page, 'login-wait-en-US');
});

test("user management offers no password reset on the administrator's own row", async ({
  page,
  ownAdmin,
  ownResearcher,
}) => {
  // An administrator and a researcher of the story's own: the newest members, so on the first page.
  await signInToWorkbench(page, ownAdmin);
  await page.goto('/system/user-manage');
  const row = (name: string) =>
    page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  await expect(row(ownResearcher.username).getByRole('button', { name: '重置密码' })).toBeVisible();
  await expect(row(ownAdmin.username)).toBeVisible();
  await expect(row(ownAdmin.username).getByRole('button', { name: '重置密码' })).toHaveCount(0);
  await screenshot(page, 'users-own-row-zh-CN');
  await page.evaluate(() => localStorage.setItem('fygo__LANGUAGE', JSON.stringify('en-US')));
  await page.reload();
  await expect(row(ownResearcher.username).getByRole('button', { name: 'Reset password' })).toBeVisible();
  await expect(row(ownAdmin.username)).toBeVisible();
  await expect(row(ownAdmin.username).getByRole('button', { name: 'Reset password' })).toHaveCount(0);
  await screenshot(page, 'users-own-row-en-US');
});
