import type { Page } from '@playwright/test';
import { account, expect, signIn } from './fixtures';

/** The helpers of the case report form stories (crf, crf-designer, crf-patients, crf-records-import). */

/** Signs in as the administrator and waits for the landing page (not its widgets, which belong to other screens). */
export async function signInAsAdmin(page: Page) {
  await signIn(page, account('admin'));
  await expect(page).toHaveURL(/\/dashboard\/workplace/);
}

/** Picks a CRF record's patient in the editor's picker, searching the server by name or MRN. */
export async function pickPatient(page: Page, text: string) {
  await page.locator('.ant-select:has(#crf-patient)').click();
  await page.keyboard.type(text);
  const option = page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: text });
  await expect(option.first()).toBeVisible();
  await option.first().click();
}

/**
 * Adds an item in the CRF designer with the keyboard: the pointer opens the hover menu of the
 * button, then Enter on the wanted entry picks it (the pointer's trip into a menu still animating
 * open missed it on a loaded machine).
 */
export async function addItem(page: Page, type: string, button = 'add-item') {
  await page.mouse.move(0, 0);
  await page.getByTestId(button).hover();
  const entry = page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: type, exact: true });
  await expect(entry).toBeVisible();
  await entry.press('Enter');
}
