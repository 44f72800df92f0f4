import {
  CONCEPT_CODE_MAX,
  CONCEPT_CODE_PATTERN,
  CONCEPT_DISPLAY_MAX,
  CONCEPT_SYNONYMS_MAX,
  findTextFault,
  type ImportFault,
  type Locale,
  TERMINOLOGY_CSV_COLUMNS,
} from '@crdp/core';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { terminologyConcepts, terminologySynonyms, terminologySystems } from '../db/schema/index.js';
import { importHeader, insertedNow, upsertChunks } from '../files/csv-import.js';
import { pinyinInitials } from '../reference/pinyin.js';

/*
 * Reading a code system's list (CSV rows in TERMINOLOGY_CSV_COLUMNS) and storing it as the site's
 * standard codes. The built-in lists (seed.ts) and a hospital's full-list import (import.ts) go
 * through the same two steps: `readConceptRows` checks every row and answers the faults,
 * `storeStandardConcepts` writes all rows in one transaction.
 */

export const MAX_TERMINOLOGY_ROWS = 300_000;
const YES = new Set(['1', 'true', 'yes', 'y', '是']);
const NO = new Set(['', '0', 'false', 'no', 'n', '否']);

export interface ConceptRow {
  code: string;
  displayZh: string;
  displayEn: string;
  parentCode: string | null;
  level: number;
  retired: boolean;
  synonyms: string[];
}

/**
 * The rows of a list, checked: code (pattern, unique), display_zh (required), parent_code (a code
 * of the same file), level (a whole number, else the depth under its parents), retired (yes/no),
 * synonyms (separated by `|`). Faults name the 1-based data row and the column.
 */
export function readConceptRows(
  rows: string[][],
  locale: Locale,
): { good: ConceptRow[]; faults: ImportFault[]; total: number } {
  const zh = locale === 'zh-CN';
  const { total, cellOf } = importHeader(
    rows,
    ['code', 'display_zh'],
    MAX_TERMINOLOGY_ROWS,
    TERMINOLOGY_CSV_COLUMNS,
  );
  const faults: ImportFault[] = [];
  const good: Array<ConceptRow & { row: number; levelGiven: boolean }> = [];
  const seen = new Map<string, number>();
  for (const [i, cells] of rows.slice(1).entries()) {
    const row = i + 1;
    const cell = cellOf(cells);
    const fault = (field: string, c: string, e: string) => faults.push({ row, field, message: zh ? c : e });
    const code = cell('code');
    const displayZh = cell('display_zh');
    const displayEn = cell('display_en');
    const parent = cell('parent_code');
    const levelText = cell('level');
    const retiredText = cell('retired').toLowerCase();
    if (!code) {
      fault('code', '编码不能为空', 'code must not be blank');
      continue;
    }
    if (code.length > CONCEPT_CODE_MAX || !CONCEPT_CODE_PATTERN.test(code)) {
      fault(
        'code',
        `编码“${code.slice(0, 50)}”只能含字母、数字和 . - _ + / *，以字母或数字开头，最多 ${CONCEPT_CODE_MAX} 个字符`,
        `code "${code.slice(0, 50)}" may hold letters, digits and . - _ + / * only, starting with a letter or digit, at most ${CONCEPT_CODE_MAX} characters`,
      );
      continue;
    }
    if (!displayZh) {
      fault('display_zh', '中文名称不能为空', 'display_zh must not be blank');
      continue;
    }
    const long = [displayZh, displayEn].find(
      (d) => d.length > CONCEPT_DISPLAY_MAX || findTextFault(d) !== null,
    );
    if (long !== undefined) {
      fault(
        displayZh === long ? 'display_zh' : 'display_en',
        `名称最多 ${CONCEPT_DISPLAY_MAX} 个字符，且不能含控制字符`,
        `names are at most ${CONCEPT_DISPLAY_MAX} characters without control characters`,
      );
      continue;
    }
    if (parent && !CONCEPT_CODE_PATTERN.test(parent)) {
      fault(
        'parent_code',
        `上级编码“${parent.slice(0, 50)}”格式不对`,
        `parent_code "${parent.slice(0, 50)}" is not a code`,
      );
      continue;
    }
    if (parent === code) {
      fault('parent_code', '上级编码不能是它自己', 'parent_code must not be the code itself');
      continue;
    }
    if (levelText && !/^[1-9]$/.test(levelText)) {
      fault('level', '层级应为 1 到 9 的整数', 'level must be a whole number from 1 to 9');
      continue;
    }
    if (!YES.has(retiredText) && !NO.has(retiredText)) {
      fault('retired', '停用应为 是/否 或 1/0', 'retired must be yes/no or 1/0');
      continue;
    }
    const synonyms = [
      ...new Set(
        cell('synonyms')
          .split('|')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    if (synonyms.length > CONCEPT_SYNONYMS_MAX || synonyms.some((s) => s.length > CONCEPT_DISPLAY_MAX)) {
      fault(
        'synonyms',
        `同义词最多 ${CONCEPT_SYNONYMS_MAX} 个，每个最多 ${CONCEPT_DISPLAY_MAX} 个字符`,
        `at most ${CONCEPT_SYNONYMS_MAX} synonyms of at most ${CONCEPT_DISPLAY_MAX} characters each`,
      );
      continue;
    }
    const first = seen.get(code);
    if (first !== undefined) {
      fault('code', `与第 ${first} 行重复（${code}）`, `repeats row ${first} (${code})`);
      continue;
    }
    seen.set(code, row);
    good.push({
      row,
      code,
      displayZh,
      displayEn,
      parentCode: parent || null,
      level: levelText ? Number(levelText) : 1,
      levelGiven: !!levelText,
      retired: YES.has(retiredText),
      synonyms,
    });
  }
  const byCode = new Map(good.map((g) => [g.code, g]));
  for (const g of good) {
    if (g.parentCode && !byCode.has(g.parentCode))
      faults.push({
        row: g.row,
        field: 'parent_code',
        message: zh
          ? `上级编码 ${g.parentCode} 不在文件中`
          : `parent_code ${g.parentCode} is not a code of the file`,
      });
  }
  // A level left blank is the depth under the parents (a cycle stops at 9).
  const depth = (g: ConceptRow): number => {
    let d = 1;
    let p = g.parentCode ? byCode.get(g.parentCode) : undefined;
    while (p && d < 9) {
      d++;
      p = p.parentCode ? byCode.get(p.parentCode) : undefined;
    }
    return d;
  };
  for (const g of good) if (!g.levelGiven) g.level = depth(g);
  faults.sort((a, b) => a.row - b.row);
  return {
    good: good.map(({ row: _row, levelGiven: _l, ...c }) => c),
    faults,
    total,
  };
}

/**
 * Stores a checked list as the standard codes of `systemKey` (inside the caller's transaction):
 * new codes are added, codes already there take the file's names, parent and level, and standard
 * codes of the system that the file leaves out are marked retired (a new version dropped them;
 * mappings to them stay readable). Local extension codes are never touched.
 */
export async function storeStandardConcepts(
  tx: Tx,
  systemKey: string,
  version: string,
  rows: ConceptRow[],
): Promise<{ inserted: number; updated: number; retired: number }> {
  const ids = new Map<string, number>();
  const { inserted } = await upsertChunks(
    rows,
    async (chunk) => {
      const res = await tx
        .insert(terminologyConcepts)
        .values(
          chunk.map((r) => ({
            systemKey,
            code: r.code,
            displayZh: r.displayZh,
            displayEn: r.displayEn,
            parentCode: r.parentCode,
            level: r.level,
            retired: r.retired,
            pinyin: pinyinInitials(r.displayZh),
            local: false,
          })),
        )
        .onConflictDoUpdate({
          target: [terminologyConcepts.systemKey, terminologyConcepts.code],
          targetWhere: sql`app_id is null`,
          set: {
            displayZh: sql`excluded.display_zh`,
            displayEn: sql`excluded.display_en`,
            parentCode: sql`excluded.parent_code`,
            level: sql`excluded.level`,
            retired: sql`excluded.retired`,
            pinyin: sql`excluded.pinyin`,
            updatedAt: sql`now()`,
          },
        })
        .returning({
          id: terminologyConcepts.conceptId,
          code: terminologyConcepts.code,
          inserted: insertedNow,
        });
      for (const r of res) ids.set(r.code, r.id);
      return res;
    },
    1000,
  );
  // Codes of the system the file leaves out: retired, not deleted. Every row of the file was
  // written in this transaction, so its updated_at is the transaction's now().
  const stale = await tx.execute(sql`
    with gone as (
      update terminology_concepts c set retired = true, updated_at = now()
      where c.system_key = ${systemKey} and c.app_id is null and not c.retired and c.updated_at < now()
      returning 1)
    select count(*)::int as n from gone`);
  // Standard synonyms follow the file.
  const all = [...ids.values()];
  for (let i = 0; i < all.length; i += 5000)
    await tx
      .delete(terminologySynonyms)
      .where(
        and(
          inArray(terminologySynonyms.conceptId, all.slice(i, i + 5000)),
          isNull(terminologySynonyms.appId),
        ),
      );
  const synonymRows = rows.flatMap((r) =>
    r.synonyms
      .filter((s) => s !== r.displayZh)
      .map((term) => ({ conceptId: ids.get(r.code)!, term, pinyin: pinyinInitials(term) })),
  );
  for (let i = 0; i < synonymRows.length; i += 1000)
    await tx
      .insert(terminologySynonyms)
      .values(synonymRows.slice(i, i + 1000))
      .onConflictDoNothing();
  await tx
    .update(terminologySystems)
    .set({ version, loadedAt: new Date(), updatedAt: new Date() })
    .where(eq(terminologySystems.systemKey, systemKey));
  return {
    inserted,
    updated: rows.length - inserted,
    retired: Number(rowsOf<{ n: number }>(stale)[0]?.n ?? 0),
  };
}
