import type { Locale, qcFault, qcReport } from '@crdp/core';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { maskNationalId, maskPhone } from '../clinical/privacy.js';
import type { Db, Tx } from '../db/client.js';
import { qcTaskRules } from '../db/schema/index.js';
import { csvText } from '../files/csv.js';
import { type Cell, xlsxBuffer } from '../files/xlsx.js';
import { invalidField } from '../http/errors.js';
import { columnOf, KIND_LABELS, type QcKind, tableOf } from './catalogue.js';
import type { RunRule } from './evaluate.js';
import { type FaultQuery, likeOf, type QcPageOf, rowsOf } from './inputs.js';
import { taskOf } from './tasks.js';

/**
 * The report of a task (DataQcReport): pass rate per rule and overall, the faulty rows with
 * their patient, and the same faults as CSV or XLSX. Only the app's own task is read; national
 * IDs and phone numbers are masked for users who may not see identity.
 */
const rate = (checked: number, faults: number) => (checked > 0 ? (checked - faults) / checked : null);

const W = {
  'zh-CN': {
    empty: '为空',
    outside: '超出范围',
    mismatch: '不符合格式',
    notAllowed: '不在允许的取值中',
    later: '晚于',
    future: '晚于当前时间',
  },
  'en-US': {
    empty: 'is empty',
    outside: 'is outside',
    mismatch: 'does not match',
    notAllowed: 'is not an allowed value',
    later: 'is later than',
    future: 'is in the future',
  },
};

function labelOf(rule: RunRule, key: string | undefined, locale: Locale) {
  const table = tableOf(rule.tableKey);
  const col = table && key ? columnOf(table, key) : undefined;
  return col?.label[locale] ?? key ?? '';
}

/** What a rule checks, in one line: 数值结果 ∈ [0, 200]（检验项目代码 = ALT）. */
export function describeRule(rule: RunRule, locale: Locale) {
  const table = tableOf(rule.tableKey);
  const col = labelOf(rule, rule.columnKey, locale);
  const p = rule.params;
  const zh = locale === 'zh-CN';
  let what: string;
  switch (rule.kind) {
    case 'required':
      what = zh ? `${col} 不能为空` : `${col} must not be empty`;
      break;
    case 'range':
      what = `${col} ∈ [${p.min ?? '-∞'}, ${p.max ?? '+∞'}]`;
      break;
    case 'pattern':
      what = zh ? `${col} 符合 /${p.pattern}/` : `${col} matches /${p.pattern}/`;
      break;
    case 'allowed':
      what = `${col} ∈ {${(p.values ?? []).join(', ')}}`;
      break;
    case 'date_order':
      what = `${col} ≤ ${labelOf(rule, p.otherColumn, locale)}`;
      break;
    case 'future_date':
      what = zh ? `${col} 不晚于当前时间` : `${col} is not in the future`;
      break;
    default:
      what = col;
  }
  const filter = p.filterColumn
    ? `${zh ? '（' : ' ('}${labelOf(rule, p.filterColumn, locale)} = ${p.filterValue}${zh ? '）' : ')'}`
    : '';
  return `${table?.label[locale] ?? rule.tableKey}: ${what}${filter}`;
}

/** Why a row is at fault, in the reader's language. */
export function faultMessage(rule: RunRule, value: string | null, other: string | null, locale: Locale) {
  const w = W[locale];
  const col = labelOf(rule, rule.columnKey, locale);
  const v = value ?? '';
  const p = rule.params;
  switch (rule.kind as QcKind) {
    case 'required':
      return locale === 'zh-CN' ? `${col}${w.empty}` : `${col} ${w.empty}`;
    case 'range':
      return `${col} ${v} ${w.outside} [${p.min ?? '-∞'}, ${p.max ?? '+∞'}]`;
    case 'pattern':
      return `${col} “${v}” ${w.mismatch} /${p.pattern}/`;
    case 'allowed':
      return `${col} “${v}” ${w.notAllowed}`;
    case 'date_order':
      return `${col} ${v} ${w.later} ${labelOf(rule, p.otherColumn, locale)} ${other ?? ''}`;
    case 'future_date':
      return `${col} ${v} ${w.future}`;
    default:
      return v;
  }
}

function masked(rule: RunRule, value: string | null, full: boolean) {
  if (full || value === null) return value;
  const table = tableOf(rule.tableKey);
  const col = table ? columnOf(table, rule.columnKey) : undefined;
  if (col?.identity === 'nationalId') return maskNationalId(value);
  if (col?.identity === 'phone') return maskPhone(value);
  return value;
}

async function taskRulesOf(db: Tx, appId: number, taskId: number) {
  return db
    .select()
    .from(qcTaskRules)
    .where(and(eq(qcTaskRules.taskId, taskId), eq(qcTaskRules.appId, appId)))
    .orderBy(asc(qcTaskRules.position));
}

export async function reportOf(
  db: Db,
  appId: number,
  taskId: number,
  locale: Locale,
): Promise<z.input<typeof qcReport>> {
  const task = await taskOf(db, appId, taskId);
  const rules = (await taskRulesOf(db, appId, taskId)).map((r) => {
    const rule = r.rule as RunRule;
    return {
      id: r.id,
      ruleId: r.ruleId,
      name: rule.name,
      kind: rule.kind,
      kindLabel: KIND_LABELS[rule.kind]?.[locale] ?? rule.kind,
      table: rule.tableKey,
      tableLabel: tableOf(rule.tableKey)?.label[locale] ?? rule.tableKey,
      condition: describeRule(rule, locale),
      severity: rule.severity,
      skipped: r.skipped,
      checked: r.checked,
      faults: r.faults,
      stored: r.stored,
      passRate: r.skipped ? null : rate(r.checked, r.faults),
    };
  });
  const run = rules.filter((r) => !r.skipped);
  const checked = run.reduce((s, r) => s + r.checked, 0);
  const faults = run.reduce((s, r) => s + r.faults, 0);
  const [patients] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(distinct patient_id)::int as n from qc_faults where task_id = ${taskId} and app_id = ${appId}`,
    ),
  );
  return {
    task,
    overall: {
      rules: rules.length,
      skipped: rules.length - run.length,
      checked,
      faults,
      passRate: rate(checked, faults),
      errorFaults: run.filter((r) => r.severity === 'error').reduce((s, r) => s + r.faults, 0),
      warningFaults: run.filter((r) => r.severity === 'warning').reduce((s, r) => s + r.faults, 0),
      patientsWithFaults: Number(patients?.n ?? 0),
    },
    rules,
  };
}

/** A fault as the API answers it (the `qcFault` contract). */
export type FaultView = z.input<typeof qcFault>;

async function faultRows(
  db: Tx,
  appId: number,
  taskId: number,
  where: SQL,
  limit: number | null,
  offset: number,
) {
  return rowsOf<Record<string, unknown>>(
    await db.execute(sql`select f.id, f.task_rule_id, f.table_key, f.row_id, f.patient_id, f.value, f.other_value,
        p.name as patient_name, p.mrn as patient_mrn
      from qc_faults f left join patients p on p.id = f.patient_id and p.app_id = f.app_id
      where f.app_id = ${appId} and f.task_id = ${taskId} and ${where}
      order by f.task_rule_id, f.id ${limit === null ? sql`` : sql`limit ${limit} offset ${offset}`}`),
  );
}

function faultWhere(q: { taskRuleId?: number; keyword?: string }) {
  const parts: SQL[] = [sql`true`];
  if (q.taskRuleId) parts.push(sql`f.task_rule_id = ${q.taskRuleId}`);
  if (q.keyword?.trim()) {
    const like = likeOf(q.keyword.trim());
    parts.push(sql`(p.name ilike ${like} or p.mrn ilike ${like})`);
  }
  return sql.join(parts, sql` and `);
}

function toView(
  r: Record<string, unknown>,
  rules: Map<number, RunRule>,
  locale: Locale,
  full: boolean,
): FaultView {
  const rule = rules.get(Number(r.task_rule_id))!;
  const value = masked(rule, (r.value as string | null) ?? null, full);
  const other = (r.other_value as string | null) ?? null;
  return {
    id: Number(r.id),
    taskRuleId: Number(r.task_rule_id),
    ruleName: rule.name,
    severity: rule.severity,
    table: String(r.table_key),
    tableLabel: tableOf(String(r.table_key))?.label[locale] ?? String(r.table_key),
    rowId: Number(r.row_id),
    patientId: Number(r.patient_id),
    patientName: (r.patient_name as string | null) ?? null,
    patientMrn: (r.patient_mrn as string | null) ?? null,
    value,
    otherValue: other,
    message: faultMessage(rule, value, other, locale),
  };
}

export async function listFaults(
  db: Db,
  appId: number,
  taskId: number,
  q: FaultQuery,
  locale: Locale,
  full: boolean,
): Promise<QcPageOf<FaultView>> {
  await taskOf(db, appId, taskId);
  const trs = await taskRulesOf(db, appId, taskId);
  if (q.taskRuleId && !trs.some((r) => r.id === q.taskRuleId))
    throw invalidField('query.taskRuleId', '这条规则不属于该任务', 'this rule is not part of the task');
  const rules = new Map(trs.map((r) => [r.id, r.rule as RunRule]));
  const where = faultWhere(q);
  const [total] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from qc_faults f left join patients p on p.id = f.patient_id and p.app_id = f.app_id
      where f.app_id = ${appId} and f.task_id = ${taskId} and ${where}`),
  );
  const rows = await faultRows(db, appId, taskId, where, q.size, (q.page - 1) * q.size);
  return {
    total: Number(total?.n ?? 0),
    page: q.page,
    size: q.size,
    items: rows.map((r) => toView(r, rules, locale, full)),
  };
}

const HEAD = {
  'zh-CN': ['规则', '严重程度', '数据表', '记录ID', '患者ID', '病案号', '姓名', '值', '比较值', '说明'],
  'en-US': [
    'Rule',
    'Severity',
    'Table',
    'Row ID',
    'Patient ID',
    'MRN',
    'Name',
    'Value',
    'Compared with',
    'Message',
  ],
};
const SEVERITY = {
  'zh-CN': { error: '错误', warning: '警告' },
  'en-US': { error: 'Error', warning: 'Warning' },
} as Record<Locale, Record<string, string>>;

/** Every stored fault of the task as rows of cells, header first. */
export async function exportRows(db: Db, appId: number, taskId: number, locale: Locale, full: boolean) {
  await taskOf(db, appId, taskId);
  const trs = await taskRulesOf(db, appId, taskId);
  const rules = new Map(trs.map((r) => [r.id, r.rule as RunRule]));
  const rows = await faultRows(db, appId, taskId, sql`true`, null, 0);
  const cells: Cell[][] = [HEAD[locale]];
  for (const r of rows) {
    const f = toView(r, rules, locale, full);
    cells.push([
      f.ruleName,
      SEVERITY[locale][f.severity] ?? f.severity,
      f.tableLabel,
      f.rowId,
      f.patientId,
      f.patientMrn,
      f.patientName,
      f.value,
      f.otherValue,
      f.message,
    ]);
  }
  return cells;
}

export async function exportFile(
  db: Db,
  appId: number,
  taskId: number,
  format: 'csv' | 'xlsx',
  locale: Locale,
  full: boolean,
) {
  const cells = await exportRows(db, appId, taskId, locale, full);
  const fileName = `data-qc-report-${taskId}.${format}`;
  if (format === 'xlsx') {
    const body = await xlsxBuffer([{ name: locale === 'zh-CN' ? '质控问题' : 'Faults', rows: [cells] }]);
    return { fileName, body, rows: cells.length - 1 };
  }
  // With a BOM and the formula guard, for spreadsheet programs.
  const body = csvText(cells, { formulaGuard: true });
  return { fileName, body, rows: cells.length - 1 };
}
