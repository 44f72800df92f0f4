import {
  type Locale,
  parseTemplate,
  type RuleActionTargetList,
  type RuleAttribute,
  type RuleAttributeOrigin,
  resultKind,
  ruleText,
  TemplateError,
} from '@crdp/core';
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { clinicalRules, diseaseLibraries, diseaseLibraryTemplates, roles } from '../db/schema/index.js';
import { actionsOf } from './rules.js';

/**
 * The attributes a condition may name (`rule/get_attribute_list`): the patient's own fields,
 * lab items and diagnosis categories found in the app's clinical data (CDR), visit counts, values
 * the cleaning area read from clinical text, and
 * the computed indicators of the app's disease libraries (their CRF items' source rules) and
 * library templates. Every key is an indicator template, so the evaluator reads them all the
 * same way.
 */

const W = {
  age: { 'zh-CN': '年龄', 'en-US': 'Age' },
  gender: { 'zh-CN': '性别', 'en-US': 'Sex' },
  birth: { 'zh-CN': '出生日期', 'en-US': 'Date of birth' },
  latest: { 'zh-CN': '（最近一次）', 'en-US': ' (latest)' },
  diagnosed: { 'zh-CN': '有诊断', 'en-US': 'Has a diagnosis' },
  visits: {
    inpatient: { 'zh-CN': '住院次数', 'en-US': 'Admissions' },
    outpatient: { 'zh-CN': '门诊次数', 'en-US': 'Outpatient visits' },
    emergency: { 'zh-CN': '急诊次数', 'en-US': 'Emergency visits' },
  },
} as const;

function attribute(key: string, label: string, origin: RuleAttributeOrigin): RuleAttribute | null {
  try {
    const rule = parseTemplate(key);
    return { key: ruleText(rule), label, origin, kind: resultKind(rule) };
  } catch (e) {
    if (e instanceof TemplateError) return null; // a stored rule with {{params}} or an old shape
    throw e;
  }
}

export async function attributeList(db: Tx, appId: number, locale: Locale): Promise<RuleAttribute[]> {
  const out: (RuleAttribute | null)[] = [
    attribute('value patient.age', W.age[locale], 'patient'),
    attribute('value patient.gender', W.gender[locale], 'patient'),
    attribute('value patient.birth_date', W.birth[locale], 'patient'),
  ];
  const labs = rowsOf<{ code: string; name: string | null }>(
    await db.execute(sql`select item_code as code, max(item_name) as name from lab_results
      where app_id = ${appId} and item_code <> '' group by item_code order by count(*) desc, item_code limit 300`),
  );
  for (const l of labs)
    out.push(
      attribute(
        `latest lab.value where code = ${JSON.stringify(l.code)}`,
        `${l.name ? `${l.name} ` : ''}(${l.code})${W.latest[locale]}`,
        'lab',
      ),
    );
  const dx = rowsOf<{ code: string; name: string | null }>(
    await db.execute(sql`select upper(left(icd10, 3)) as code, min(name) as name from diagnoses
      where app_id = ${appId} and icd10 <> '' group by upper(left(icd10, 3)) order by count(*) desc limit 300`),
  );
  for (const d of dx)
    out.push(
      attribute(
        `exists diagnosis where code starts ${JSON.stringify(d.code)}`,
        `${W.diagnosed[locale]} ${d.code}${d.name ? ` ${d.name}` : ''}`,
        'diagnosis',
      ),
    );
  // Values the cleaning area read from clinical text (收缩压 from admission notes).
  const cleaned = rowsOf<{ name: string; unit: string | null }>(
    await db.execute(sql`select name, max(unit) as unit from cleaned_values
      where app_id = ${appId} and name <> '' and fault = '' group by name order by count(*) desc, name limit 200`),
  );
  for (const c of cleaned)
    out.push(
      attribute(
        `latest cleaned.value where name = ${JSON.stringify(c.name)}`,
        `${c.name}${c.unit ? ` (${c.unit})` : ''}${W.latest[locale]}`,
        'cleaned',
      ),
    );
  for (const kind of ['inpatient', 'outpatient', 'emergency'] as const)
    out.push(attribute(`count visit where kind = "${kind}"`, W.visits[kind][locale], 'visit'));
  const libs = await db
    .select({ name: diseaseLibraries.name, rules: diseaseLibraries.sourceRules })
    .from(diseaseLibraries)
    .where(eq(diseaseLibraries.appId, appId));
  for (const lib of libs)
    for (const [item, text] of Object.entries((lib.rules ?? {}) as Record<string, string>))
      out.push(attribute(text, `${lib.name} · ${item}`, 'crf'));
  const templates = await db
    .select({ name: diseaseLibraryTemplates.name, rules: diseaseLibraryTemplates.sourceRules })
    .from(diseaseLibraryTemplates)
    .where(eq(diseaseLibraryTemplates.appId, appId));
  for (const t of templates)
    for (const [item, text] of Object.entries((t.rules ?? {}) as Record<string, string>))
      out.push(attribute(text, `${t.name} · ${item}`, 'indicator'));
  const seen = new Set<string>();
  return out.filter((a): a is RuleAttribute => {
    if (!a || seen.has(a.key)) return false;
    seen.add(a.key);
    return true;
  });
}

/** `rule/conditional_retrieval_attribute`: attributes whose name or template contains the word. */
export async function searchAttributes(
  db: Tx,
  appId: number,
  locale: Locale,
  keyword: string,
  limit: number,
) {
  const all = await attributeList(db, appId, locale);
  const k = keyword.toLowerCase();
  return all
    .filter((a) => !k || a.label.toLowerCase().includes(k) || a.key.toLowerCase().includes(k))
    .slice(0, limit);
}

/**
 * `rule/action_retrieval_attribute`: what an action may point at: the derived attributes and
 * tags the app's rules already set (to reuse a name), and the app's roles (to notify).
 */
export async function actionTargets(
  db: Tx,
  appId: number,
  keyword: string,
  limit: number,
): Promise<RuleActionTargetList> {
  const items: RuleActionTargetList['items'] = [];
  const seen = new Set<string>();
  const push = (kind: 'derive' | 'tag' | 'role', key: string) => {
    const id = `${kind}:${key}`;
    if (seen.has(id) || (keyword && !key.toLowerCase().includes(keyword.toLowerCase()))) return;
    seen.add(id);
    items.push({ kind, key, label: key });
  };
  const rules = await db.select().from(clinicalRules).where(eq(clinicalRules.appId, appId));
  for (const r of rules)
    for (const a of actionsOf(r)) {
      if (a.kind === 'derive') push('derive', a.name);
      if (a.kind === 'tag') push('tag', a.tag);
    }
  const rs = await db.select({ name: roles.roleName }).from(roles).where(eq(roles.appId, appId));
  for (const r of rs) push('role', r.name);
  return { items: items.slice(0, limit) };
}
