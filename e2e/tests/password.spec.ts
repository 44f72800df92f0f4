import { apiLogin, envelope, expect, signIn, signInToWorkbench, test } from '../fixtures';

/** The story changes the password of a researcher of its own (the demo researcher is shared). */
test('change password: every message in order, then a successful change after which the old password fails', async ({
  page,
  ownResearcher: researcher,
}) => {
  const newPassword = 'New#Pass2025';
  await signInToWorkbench(page, researcher);
  await page.getByTestId('avatar-menu').hover();
  await page.getByRole('menuitem', { name: '修改密码' }).click();
  const dialog = page.getByRole('dialog', { name: '修改密码' });
  await expect(dialog).toBeVisible();
  const ok = dialog.getByRole('button', { name: /确\s*定/ });
  const toast = page.locator('.ant-message');

  await ok.click();
  await expect(toast).toContainText('旧密码不能为空');
  await dialog.getByPlaceholder('请输入旧密码').fill('Wrong#Old2024');
  await ok.click();
  await expect(toast).toContainText('新密码不能为空');
  await dialog.getByPlaceholder('请输入新密码').fill('weak');
  // The policy hint shows as a warning while typing.
  await expect(dialog.locator('.ant-alert-warning')).toContainText('8 到 32 位');
  await ok.click();
  await expect(toast).toContainText('确认密码不能为空');
  await dialog.getByPlaceholder('请再次输入新密码').fill('weak2');
  await expect(dialog.getByText('两次输入的密码不一致', { exact: true })).toBeVisible();
  await ok.click();
  await expect(toast).toContainText('两次输入的密码不一致，请重新提交');

  // The server checks the old password and says so under that field, not in a toast.
  await dialog.getByPlaceholder('请输入新密码').fill(newPassword);
  await dialog.getByPlaceholder('请再次输入新密码').fill(newPassword);
  await expect(dialog.locator('.ant-alert-warning')).toHaveCount(0);
  await ok.click();
  // Under the old-password field (the first field's explanation), after the server has answered.
  await expect(dialog.locator('.ant-form-item-explain-error').first()).toHaveText('旧密码错误', {
    timeout: 60_000,
  });
  // The checks before were one message at a time, never a stack.
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 5_000 });

  await dialog.getByPlaceholder('请输入旧密码').fill(researcher.password);
  await ok.click();
  await expect(toast).toContainText('密码修改成功');
  await expect(page).toHaveURL(/\/user\/login/);
  await expect(dialog).toBeHidden();

  await signIn(page, researcher);
  await expect(page.getByTestId('login-error')).toContainText('用户名或密码错误');
  await signInToWorkbench(page, { ...researcher, password: newPassword });

  // The server agrees: the new password signs in, the old one no longer does.
  expect(await apiLogin(researcher, newPassword)).toMatch(/\S/);
  const check = await envelope('Login', [{ UserName: researcher.username, Password: researcher.password }]);
  expect(check.status).toBe(401);
});
