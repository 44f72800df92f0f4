import { createPublicKey, publicEncrypt, constants as rsa } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';

export type Role = 'admin' | 'researcher' | 'no-product';
export interface Account {
  username: string;
  password: string;
  role: Role;
}

const screensDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '.screens');

export function account(role: Role): Account {
  const users = JSON.parse(process.env.E2E_ACCOUNTS ?? '[]') as Account[];
  const found = users.find((u) => u.role === role);
  if (!found) throw new Error(`No demo account with role ${role}`);
  return found;
}

export const test = base.extend({
  // The server's port is chosen by the global setup, after this config was read.
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
});

export { expect };

/** Saves a screenshot under e2e/.screens (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string) {
  mkdirSync(screensDir, { recursive: true });
  await page.screenshot({ path: path.join(screensDir, `${name}.png`), fullPage: false });
}

/** Signs in through the login page. */
export async function signIn(page: Page, who: Account, password = who.password) {
  await page.goto('/user/login');
  await page.getByPlaceholder('用户名').fill(who.username);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** Signs in and waits for the workbench greeting. */
export async function signInToWorkbench(page: Page, who: Account) {
  await signIn(page, who);
  await expect(page).toHaveURL(/\/dashboard\/workplace/);
  await expect(page.getByTestId('greeting')).toBeVisible();
}

interface Envelope<T> {
  code: number;
  result: T;
  error?: { message: string };
}

/** Envelope call from the test process (for setup and for checks of the server's answer). */
export async function envelope<T>(
  method: string,
  params: unknown[],
  sessionKey?: string,
  pathName = 'api/merchants/merchantslogin',
) {
  const res = await fetch(`${process.env.E2E_BASE_URL}/${pathName}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(sessionKey ? { WeAppAuthorization: sessionKey } : {}),
    },
    body: JSON.stringify({ method, params }),
  });
  return { status: res.status, body: (await res.json()) as Envelope<T> };
}

export async function apiLogin(who: Account, password = who.password): Promise<string> {
  const { status, body } = await envelope<{ User: { SessionKey: string } }>('Login', [
    { UserName: who.username, Password: password },
  ]);
  if (status !== 200) throw new Error(`Login of ${who.username} failed: ${status} ${JSON.stringify(body)}`);
  return body.result.User.SessionKey;
}

/** Changes a password through the API, encrypting like the browser does (RSA-OAEP, SHA-256). */
export async function apiChangePassword(sessionKey: string, oldPwd: string, newPwd: string) {
  const res = await fetch(`${process.env.E2E_BASE_URL}/api/v0.1/auth/public_key`);
  const { data } = (await res.json()) as { data: { jwk: { kty: string; n: string; e: string } } };
  const key = createPublicKey({ key: { kty: data.jwk.kty, n: data.jwk.n, e: data.jwk.e }, format: 'jwk' });
  const enc = (s: string) =>
    publicEncrypt({ key, padding: rsa.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(s)).toString(
      'base64',
    );
  return envelope<boolean>('ChangePwd', [{ oldPwd: enc(oldPwd), newPwd: enc(newPwd) }], sessionKey);
}

export async function restCall<T>(method: string, url: string, sessionKey?: string, body?: unknown) {
  const res = await fetch(`${process.env.E2E_BASE_URL}/api/v0.1/${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(sessionKey ? { WeAppAuthorization: sessionKey } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { code: number; data: T; message?: string } };
}
