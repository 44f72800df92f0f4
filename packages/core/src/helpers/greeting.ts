import type { Locale } from '../messages.js';

export type GreetingPeriod = 'morning' | 'forenoon' | 'noon' | 'afternoon' | 'evening';

/** Spec 000 section 9: before 9 morning; 9-11 forenoon; 12-13 noon; 14-19 afternoon; 20 and later evening. */
export function greetingPeriod(hour: number): GreetingPeriod {
  if (hour < 9) return 'morning';
  if (hour < 12) return 'forenoon';
  if (hour < 14) return 'noon';
  if (hour < 20) return 'afternoon';
  return 'evening';
}

export const GREETINGS: Record<GreetingPeriod, Record<Locale, string>> = {
  morning: { 'zh-CN': '早上好', 'en-US': 'Good morning' },
  forenoon: { 'zh-CN': '上午好', 'en-US': 'Good morning' },
  noon: { 'zh-CN': '中午好', 'en-US': 'Good day' },
  afternoon: { 'zh-CN': '下午好', 'en-US': 'Good afternoon' },
  evening: { 'zh-CN': '晚上好', 'en-US': 'Good evening' },
};

/** The greeting text for an hour (0-23), or for the hour of a date. */
export function greeting(at: number | Date, locale: Locale = 'zh-CN'): string {
  const hour = typeof at === 'number' ? at : at.getHours();
  return GREETINGS[greetingPeriod(hour)][locale];
}
