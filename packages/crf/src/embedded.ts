import { compiled } from './compile.js';
import type { Answers, Form } from './types.js';

/**
 * Answers stored inside an older form: that product kept each answer on its item (`radio`,
 * `checkList`, `matrixValue`, blank `value`, `value` of a text question, `fxVal` of a
 * manually overridden computed item). Reading them lets such a form open with its data.
 */
export function answersInForm(form: Form): Answers {
  const answers: Answers = {};
  for (const node of compiled(form).nodes) {
    const item = node.item;
    if (!item) continue;
    let value: unknown;
    if (item.type === 'radio' || item.type === 'score') value = item.radio ?? item.value;
    else if (item.type === 'checkbox') value = item.checkList;
    else if (item.type === 'matrix') value = item.matrixValue;
    else if (item.type === 'gapFilling' && item.gapFilling?.some((b) => b.value !== undefined)) {
      value = Object.fromEntries(item.gapFilling.map((b, i) => [b.key ?? String(i), b.value]));
    } else if (item.fxTopicData) value = item.method === 'manual' ? (item.fxVal ?? item.value) : undefined;
    else value = item.value;
    if (value !== undefined && value !== null && value !== '') answers[node.key] = value;
  }
  return answers;
}
