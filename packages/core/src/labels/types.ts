import type { Locale } from '../messages.js';

/** A code's words in both languages of the product. */
export type LabelText = Readonly<Record<Locale, string>>;
