import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('uses the documented defaults when nothing is set', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8000);
    expect(c.sessionTtlMs).toBe(7_200_000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.demoData).toBe(true);
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('turns demo data off by default on PostgreSQL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).demoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', DEMO_DATA: 'on' }).demoData).toBe(true);
  });

  it('takes a read replica (DATABASE_READ_URL) only beside a primary, and the schedule tick in seconds', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_READ_URL: 'postgres://u@r/db' });
    expect(c.databaseReadUrl).toBe('postgres://u@r/db');
    expect(loadConfig({}).databaseReadUrl).toBeUndefined();
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://u@r/db' })).toThrow(
      /DATABASE_READ_URL: needs DATABASE_URL/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_READ_URL: 'mysql://r' })).toThrow(
      /DATABASE_READ_URL.*postgres:\/\//,
    );
    expect(loadConfig({}).scheduleTickSeconds).toBe(30);
    expect(loadConfig({ SCHEDULE_TICK_SECONDS: '1' }).scheduleTickSeconds).toBe(1);
    expect(() => loadConfig({ SCHEDULE_TICK_SECONDS: '0' })).toThrow(/SCHEDULE_TICK_SECONDS/);
  });

  it('refuses a bad value with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty"/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL.*postgres:\/\//);
    expect(() => loadConfig({ DEMO_DATA: 'maybe' })).toThrow(/DEMO_DATA/);
    expect(() => loadConfig({ SESSION_TTL_MS: '5' })).toThrow(/SESSION_TTL_MS/);
  });

  it('holds DEMO_PASSWORD to the password policy, naming the variable but never repeating its value', () => {
    const refused = (value: string, reason: RegExp) => {
      let message = '';
      try {
        loadConfig({ DEMO_PASSWORD: value });
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        message = (e as Error).message;
      }
      expect(message).toMatch(new RegExp(`DEMO_PASSWORD: .*${reason.source}`));
      expect(message).not.toContain(value);
    };
    refused('abcdefghij', /at least three of/); // long enough, one kind of character
    refused('Abc-1234\n', /control or invalid characters/); // a line break in an env file
    refused('Abc\u00001234!', /control or invalid characters/);
    refused('Ab1!😀😀😀', /8 to 32 characters/); // 7 characters, 10 UTF-16 units
    expect(loadConfig({ DEMO_PASSWORD: 'Ab1!😀😀😀😀' }).demoPassword).toBe('Ab1!😀😀😀😀'); // 8 characters
    expect(loadConfig({ DEMO_PASSWORD: `Ab1!${'😀'.repeat(28)}` }).demoPassword).toHaveLength(60); // 32 characters
  });
});
