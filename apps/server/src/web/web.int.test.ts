import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/helper.js';

/**
 * The built web app as a browser gets it: the pre-compressed file the browser accepts, hashed
 * assets cached for good, index.html checked on every use (so an upgrade never leaves a browser
 * asking for assets that are gone).
 */
describe('serving the web app', () => {
  let t: TestApp;
  let webDir: string;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
  const html = `<!doctype html><title>CRDP</title><div id="root"></div><script src="/assets/index-Ab12.js"></script>${' '.repeat(2000)}`;

  beforeAll(async () => {
    webDir = await mkdtemp(path.join(os.tmpdir(), 'crdp-web-'));
    await mkdir(path.join(webDir, 'assets'));
    const files: Record<string, string> = { 'index.html': html, 'assets/index-Ab12.js': script };
    for (const [name, body] of Object.entries(files)) {
      await writeFile(path.join(webDir, name), body);
      await writeFile(path.join(webDir, `${name}.br`), brotliCompressSync(body));
      await writeFile(path.join(webDir, `${name}.gz`), gzipSync(body));
    }
    t = await startTestApp({ webDist: webDir });
  });
  afterAll(async () => {
    await t.close();
    await rm(webDir, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends the Brotli file to a browser that accepts it, else gzip, else the plain file', async () => {
    const br = await get('/assets/index-Ab12.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(String(br.headers.vary ?? '').toLowerCase()).toContain('accept-encoding');

    const gz = await get('/assets/index-Ab12.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-Ab12.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['content-type']).toContain('javascript');
  });

  it('caches hashed assets for a year as immutable and never caches index.html without checking', async () => {
    const asset = await get('/assets/index-Ab12.js', 'br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/index.html', '/dashboard/workplace', '/user/login?redirect=%2F']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(html);
    }
    // index.html by gzip and plain too, still checked on every use.
    const gz = await get('/user/login', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(html);
    expect(gz.headers['cache-control']).toBe('no-cache');
    const plain = await get('/user/login');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(html);
    expect(plain.headers['cache-control']).toBe('no-cache');
  });

  it('answers an asset of an older build with 404, not with index.html', async () => {
    // A browser still running the previous index.html asks for a chunk that the upgrade removed:
    // it must fail as a missing script (the app then reloads), never get HTML as JavaScript.
    for (const encoding of ['br, gzip', 'gzip', undefined]) {
      const res = await get('/assets/Workplace-0ld0Hash.js', encoding);
      expect(res.statusCode, encoding).toBe(404);
      expect(res.headers['content-type'], encoding).not.toContain('text/html');
      expect(res.headers['content-encoding'], encoding).toBeUndefined();
      expect(res.body, encoding).not.toContain('<title>CRDP</title>');
      expect(String(res.headers['cache-control'] ?? ''), encoding).not.toContain('immutable');
    }
    const css = await get('/assets/index-0ld0Hash.css', 'br');
    expect(css.statusCode).toBe(404);
    expect(css.body).not.toContain('<title>CRDP</title>');
  });

  it('keeps API answers out of every cache, whatever the browser accepts', async () => {
    for (const encoding of ['br, gzip', 'gzip', undefined]) {
      const ok = await get('/api/v0.1/site', encoding);
      expect(ok.statusCode, encoding).toBe(200);
      expect(ok.headers['cache-control'], encoding).toBe('no-store');
      const missing = await get('/api/v0.1/no-such-route', encoding);
      expect(missing.statusCode, encoding).toBe(404);
      expect(missing.headers['cache-control'], encoding).toBe('no-store');
      expect(missing.headers['content-type'], encoding).toContain('application/json');
    }
  });
});
