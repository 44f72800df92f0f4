import type { ValueKind } from './conditions.js';
import type { FormItem } from './types.js';
import { isOff } from './values.js';

/**
 * What an item's answer holds, decided from the item's definition alone:
 *
 * - `number`: one number (a numeric or digit text question, a calculated item, a score without options);
 * - `choice`: one option code (a single-choice radio, a score with options);
 * - `set`: several option codes or files (checkboxes, a multiple-choice radio, uploads);
 * - `date`: a date text question;
 * - `text`: free text (other text questions, gap filling);
 * - `none`: no answer of its own (paragraphs, matrices and anything unknown).
 *
 * The engine uses it to read answers and to check which conditions apply; other code (the
 * research datasets, for instance) uses it to know which items give a number or one code.
 */
export function itemValueKind(item: FormItem): ValueKind {
  if (item.fxTopicData && !isOff(item.fxRadio)) return 'number';
  switch (item.type) {
    case 'checkbox':
    case 'upload':
      return 'set';
    case 'radio':
      return item.typeQ === 'multi' ? 'set' : 'choice';
    case 'score':
      return item.options?.length ? 'choice' : 'number';
    case 'textQuestion': {
      const t = `${item.textType ?? ''} ${item.inputType ?? ''}`.toLowerCase();
      if (t.includes('number') || t.includes('digit')) return 'number';
      if (t.includes('date')) return 'date';
      return 'text';
    }
    case 'gapFilling':
      return 'text';
    default:
      return 'none';
  }
}
