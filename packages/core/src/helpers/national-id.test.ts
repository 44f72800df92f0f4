import { describe, expect, it } from 'vitest';
import {
  checkNationalId,
  NATIONAL_ID_TIPS,
  nationalIdCheckDigit,
  nationalIdProblem,
  parseNationalId,
  randomNationalId,
} from './national-id.js';
import { seededRandom as seeded } from './seeded.js';

describe('checkNationalId', () => {
  it('passes the GB 11643 sample number with an empty tip', () => {
    expect(checkNationalId('11010519491231002X')).toEqual({ pass: true, tip: '' });
    expect(checkNationalId('11010519491231002x')).toEqual({ pass: true, tip: '' });
    expect(checkNationalId(' 11010519491231002X ')).toEqual({ pass: true, tip: '' });
  });

  it('passes a 15-digit number with a real birth date', () => {
    expect(checkNationalId('110105491231002')).toEqual({ pass: true, tip: '' });
  });

  it.each([
    ['', 'empty'],
    ['1101051949123100', '16 digits'],
    ['1101051949123100211', '19 digits'],
    ['11010519491331002X', 'month 13'],
    ['11010519490231002X', '31 February'],
    ['11010519490229002X', '29 February in a common year'],
    ['1101051949123100X2', 'X in the middle'],
    ['110105491232002', '15 digits, day 32'],
    ['abcdefghijklmno', 'letters'],
  ])('refuses %s (%s) as a format error', (id) => {
    expect(checkNationalId(id)).toEqual({ pass: false, tip: NATIONAL_ID_TIPS.format });
  });

  it('reads 29 February of a leap year as a real date', () => {
    const first17 = '11010520000229002';
    expect(checkNationalId(first17 + nationalIdCheckDigit(first17)).pass).toBe(true);
  });

  it('refuses non-text input as a format error', () => {
    expect(checkNationalId(null)).toEqual({ pass: false, tip: '身份证号格式错误' });
    expect(checkNationalId(110105491231002)).toEqual({ pass: false, tip: '身份证号格式错误' });
  });

  it.each([
    '10',
    '16',
    '20',
    '24',
    '30',
    '38',
    '40',
    '47',
    '49',
    '55',
    '60',
    '66',
    '70',
    '72',
    '80',
    '83',
    '90',
    '92',
    '99',
  ])('refuses province code %s with the address tip', (code) => {
    const first17 = `${code}010519491231002`;
    expect(checkNationalId(first17 + nationalIdCheckDigit(first17))).toEqual({
      pass: false,
      tip: '身份证号地址编码错误',
    });
  });

  it.each(['11', '15', '21', '23', '31', '37', '41', '46', '50', '54', '61', '65', '71', '81', '82', '91'])(
    'accepts province code %s',
    (code) => {
      const first17 = `${code}010519491231002`;
      expect(checkNationalId(first17 + nationalIdCheckDigit(first17)).pass).toBe(true);
    },
  );

  it('refuses a wrong check digit with the check-digit tip', () => {
    expect(checkNationalId('110105194912310021')).toEqual({ pass: false, tip: '身份证号校验位错误' });
  });

  it('checks the format before the province, and the province before the check digit', () => {
    expect(checkNationalId('99010519491331002X').tip).toBe(NATIONAL_ID_TIPS.format);
    expect(checkNationalId('990105194912310021').tip).toBe(NATIONAL_ID_TIPS.province);
  });
});

describe('randomNationalId', () => {
  it('produces 1,000 valid 18-digit and 15-digit numbers from a seeded generator', () => {
    const rng = seeded(42);
    for (let i = 0; i < 1000; i++) {
      const id18 = randomNationalId(rng);
      expect(id18).toHaveLength(18);
      expect(checkNationalId(id18)).toEqual({ pass: true, tip: '' });
      const id15 = randomNationalId(rng, { length: 15 });
      expect(id15).toHaveLength(15);
      expect(checkNationalId(id15).pass).toBe(true);
    }
  });

  it('repeats with the same seed and honours a given birth date', () => {
    expect(randomNationalId(seeded(7))).toBe(randomNationalId(seeded(7)));
    const id = randomNationalId(seeded(1), { birthDate: '1985-06-15' });
    expect(id.slice(6, 14)).toBe('19850615');
  });
});

describe('parseNationalId', () => {
  it('reads the birth date and the sex from the sequence digit', () => {
    expect(parseNationalId('11010519491231002X')).toEqual({ birthDate: '1949-12-31', gender: 2 });
    expect(parseNationalId('110105491231001')).toEqual({ birthDate: '1949-12-31', gender: 1 });
    expect(parseNationalId('110105194912310021')).toBeNull();
  });
});

describe('nationalIdProblem (the form fields of every screen)', () => {
  it('says nothing of an empty field or a valid number', () => {
    expect(nationalIdProblem('', 'zh-CN')).toBeNull();
    expect(nationalIdProblem(undefined, 'en-US')).toBeNull();
    expect(nationalIdProblem('11010519491231002X', 'en-US')).toBeNull();
  });

  it('words each of the three tips in both languages', () => {
    expect(nationalIdProblem('1234', 'zh-CN')).toBe(NATIONAL_ID_TIPS.format);
    expect(nationalIdProblem('1234', 'en-US')).toMatch(/15 or 18 digits/);
    expect(nationalIdProblem('99010519491231002X', 'zh-CN')).toBe(NATIONAL_ID_TIPS.province);
    expect(nationalIdProblem('99010519491231002X', 'en-US')).toMatch(/region code/);
    expect(nationalIdProblem('110105194912310021', 'zh-CN')).toBe(NATIONAL_ID_TIPS.checkDigit);
    expect(nationalIdProblem('110105194912310021', 'en-US')).toMatch(/check digit/);
  });
});
