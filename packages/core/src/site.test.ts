import { describe, expect, it } from 'vitest';
import { SITE_DEFAULT_TEXT, siteText } from './site.js';

describe('site texts', () => {
  it('shows an unchanged default in the reader’s language', () => {
    expect(siteText('environment', SITE_DEFAULT_TEXT.environment['zh-CN'], 'en-US')).toBe(
      'Local environment',
    );
    expect(siteText('loginTitle', '临床科研数据平台', 'en')).toBe('Clinical research data platform');
    expect(siteText('environment', '本地环境', 'zh-CN')).toBe('本地环境');
  });

  it('shows what an administrator wrote as written, in every language', () => {
    expect(siteText('environment', '省人民医院生产环境', 'en-US')).toBe('省人民医院生产环境');
    expect(siteText('documentTitle', 'Research portal', 'zh-CN')).toBe('Research portal');
  });
});
