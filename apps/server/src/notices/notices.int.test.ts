import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notices, users } from '../db/schema/index.js';
import { enqueueJob } from '../jobs/runner.js';
import { demoAppId } from '../research/test/support.js';
import { signIn, startTestApp, type TestApp } from '../test/helper.js';

/** The header bell words a finished job in the reader's language, never as its kind code. */
describe('notices of finished jobs', () => {
  let t: TestApp;
  let admin: string;
  let appId: number;
  let userId: number;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    appId = await demoAppId(t.app);
    const [u] = await t.app.db.select().from(users).where(eq(users.userName, 'admin'));
    userId = u!.userId;
  });
  afterAll(async () => t.close());

  const bell = async (locale: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v0.1/notices',
      headers: { WeAppAuthorization: admin, 'Accept-Language': locale },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data.items as Array<{ kind: string; title: string; body: string }>;
  };

  it('titles a failed research analysis "科研统计分析失败" / "Research analysis failed" with its reason in that language', async () => {
    // First the admin's analysis fails: its dataset does not exist.
    await enqueueJob(t.app.db, {
      appId,
      kind: 'research.analysis',
      params: { subjectId: 2_000_000_000, datasetId: 2_000_000_000, analysis: {} },
      createdBy: userId,
    });
    await t.app.jobs.drain();
    const zh = (await bell('zh-CN')).find((n) => n.kind === 'job.finished')!;
    expect(zh.title).toBe('科研统计分析失败');
    expect(zh.body).toMatch(/[\u4e00-\u9fff]/);
    const en = (await bell('en-US')).find((n) => n.kind === 'job.finished')!;
    expect(en.title).toBe('Research analysis failed');
    expect(en.body).not.toMatch(/[\u4e00-\u9fff]/);
    expect(en.body).not.toBe('');
    for (const n of [zh, en]) expect(n.title).not.toContain('research.analysis');
  });

  it('words a notice written before the facts were kept ("cdr.import 完成")', async () => {
    await t.app.db.insert(notices).values({ appId, userId, kind: 'job.finished', title: 'cdr.import 完成' });
    const titles = (await bell('en-US')).map((n) => n.title);
    expect(titles).toContain('Clinical data import finished');
    expect(titles).not.toContain('cdr.import 完成');
  });
});
