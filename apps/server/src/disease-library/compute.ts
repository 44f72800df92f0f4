import type { LibraryComputed } from '@crdp/core';
import { parseTemplate, resultKind, ruleText, TemplateError } from '@crdp/core';
import type { Tx } from '../db/client.js';
import { checkRuleT0Events } from '../t0/refs.js';
import { invalid, libraryOf } from './libraries.js';
import { computeRule, libraryBase, patientsBase } from './template-sql.js';

/**
 * The computed-indicator template call of spec 000 section 7
 * (`POST /api/v0.1/diseaselibrary/compute_indicator`, body `template_str`, `template_params`):
 * parses the template and, given a library or patients, computes their values. The rule editor
 * uses it to check a rule and try it on a few patients before saving it.
 */
export async function computeIndicator(
  db: Tx,
  appId: number,
  input: {
    template_str: string;
    template_params: Record<string, string | number>;
    library_id?: number | undefined;
    patient_ids?: number[] | undefined;
  },
): Promise<LibraryComputed> {
  let rule: ReturnType<typeof parseTemplate>;
  try {
    rule = parseTemplate(input.template_str, input.template_params);
  } catch (e) {
    if (e instanceof TemplateError) throw invalid(`body.${e.field}`, e.zh, e.message);
    throw e;
  }
  await checkRuleT0Events(db, appId, { template_str: input.template_str }, 'body');
  const out = { rule, text: ruleText(rule), kind: resultKind(rule) };
  let base = null;
  if (input.library_id !== undefined) {
    const lib = await libraryOf(db, appId, input.library_id);
    base = libraryBase(lib.id, input.patient_ids);
  } else if (input.patient_ids?.length) base = patientsBase(appId, input.patient_ids);
  if (!base) return { ...out, values: [] };
  const values = await computeRule(db, rule, appId, base);
  return { ...out, values: values.slice(0, 200) };
}
