import {
  CODING_SCREENS,
  type CodedModelVariable,
  type CodingKind,
  type codedModelVariableQuery,
  DATA_MODEL_STANDARDS,
  type modelMappingQuery,
  type modelMappingRemove,
  type modelMappingSet,
} from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { listMappings, removeMapping, storeMapping } from '../coding/mappings.js';
import { codeOf } from '../coding/tasks.js';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { withAppScope } from '../db/scoped.js';
import type { SignedIn } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { search } from '../terminology/concepts.js';
import { ensureTerminologies } from '../terminology/seed.js';
import { standardModel } from './standards.js';

/*
 * 编码映射关系: which local codes map to which standard codes, per model variable. The mappings are
 * the coding area's own (coding_mappings, one row per app, kind and local term; see
 * ../coding/README.md): this screen reads and writes the same rows, so a code chosen here is the
 * code the coding screens, the coded CDR views and the SDTM export show, and the other way round.
 */

/** The model variables coded by the coding area, with how many of the kind's terms are mapped. */
export async function codedVariables(
  db: Db,
  appId: number,
  q: z.output<typeof codedModelVariableQuery>,
): Promise<{ items: CodedModelVariable[] }> {
  const counts = rowsOf<{ kind: CodingKind; mapped: number; no_code: number }>(
    await db.execute(sql`select kind, count(*) filter (where code is not null)::int as mapped,
      count(*) filter (where code is null)::int as no_code from coding_mappings where app_id = ${appId} group by kind`),
  );
  const count = (k: CodingKind) => counts.find((c) => c.kind === k);
  const items: CodedModelVariable[] = [];
  const push = (
    modelRef: string,
    modelName: string,
    table: string,
    v: { name: string; label: string; codingKind: CodingKind | null },
  ) => {
    if (!v.codingKind) return;
    const c = count(v.codingKind);
    items.push({
      modelRef,
      modelName,
      table,
      variable: v.name,
      label: v.label,
      codingKind: v.codingKind,
      mapped: Number(c?.mapped ?? 0),
      noCode: Number(c?.no_code ?? 0),
    });
  };
  for (const key of DATA_MODEL_STANDARDS) {
    const ref = `standard:${key}`;
    if (q.model && q.model !== ref) continue;
    const m = standardModel(key);
    for (const t of m.tables) for (const v of t.variables) push(ref, `${m.standard} ${m.version}`, t.name, v);
  }
  const modelId = q.model?.startsWith('model:') ? Number(q.model.slice(6)) : null;
  const rows = rowsOf<{
    model_id: number;
    model_name: string;
    version: number;
    table_name: string;
    name: string;
    label: string;
    coding_kind: CodingKind;
  }>(
    await db.execute(sql`select m.id as model_id, m.name as model_name, m.version, t.name as table_name, v.name, v.label, v.coding_kind
      from data_model_variables v join data_model_tables t on t.id = v.table_id join data_models m on m.id = v.model_id
      where v.app_id = ${appId} and v.coding_kind is not null
        and ${modelId === null ? sql`true` : sql`m.id = ${modelId}`}
        and (${q.model === undefined || modelId !== null})
        and m.version = (select max(x.version) from data_models x where x.app_id = m.app_id and x.code = m.code)
      order by m.name, t.position, v.position`),
  );
  if (modelId !== null && !rows.length) {
    const [exists] = rowsOf<{ id: number }>(
      await db.execute(sql`select id from data_models where id = ${modelId} and app_id = ${appId}`),
    );
    if (!exists) throw notFound('data_model');
  }
  for (const r of rows)
    push(`model:${r.model_id}`, `${r.model_name} v${r.version}`, r.table_name, {
      name: r.name,
      label: r.label,
      codingKind: r.coding_kind,
    });
  return { items };
}

export function modelMappings(db: Db, appId: number, q: z.output<typeof modelMappingQuery>) {
  return listMappings(db, appId, q.kind, q);
}

/** Maps a local term to a standard code of the kind's system (or to "no code"): the coding area's row. */
export async function setModelMapping(ctx: SignedIn, m: z.output<typeof modelMappingSet>) {
  const systemKey = CODING_SCREENS[m.kind].systemKey;
  await ensureTerminologies(ctx.db);
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const chosen = m.code ? await codeOf(tx, ctx.appId, systemKey, m.code) : null;
    const [before] = rowsOf<{ code: string | null }>(
      await tx.execute(
        sql`select code from coding_mappings where app_id = ${ctx.appId} and kind = ${m.kind} and term = ${m.term}`,
      ),
    );
    await storeMapping(tx, ctx, {
      kind: m.kind,
      term: m.term,
      systemKey,
      chosen,
      how: chosen ? 'search' : 'noCode',
      score: null,
      reason: '',
      taskId: null,
    });
    await audit(tx, ctx, {
      action: 'dataModel.mapping.set',
      entity: 'coding_mapping',
      entityId: `${m.kind}:${m.term}`,
      before: before ?? null,
      after: { kind: m.kind, term: m.term, code: chosen?.code ?? null },
    });
  });
  return true as const;
}

export async function removeModelMapping(ctx: SignedIn, m: z.output<typeof modelMappingRemove>) {
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const [before] = rowsOf<{ code: string | null }>(
      await tx.execute(
        sql`select code from coding_mappings where app_id = ${ctx.appId} and kind = ${m.kind} and term = ${m.term}`,
      ),
    );
    if (!before) throw notFound('coding_mapping');
    await removeMapping(tx, ctx.appId, m.kind, m.term);
    await audit(tx, ctx, {
      action: 'dataModel.mapping.remove',
      entity: 'coding_mapping',
      entityId: `${m.kind}:${m.term}`,
      before,
    });
  });
  return true as const;
}

/** Standard codes of a kind's system for the mapping form's search (code, name, pinyin initials). */
export function searchCodes(db: Db, appId: number, kind: CodingKind, q: string) {
  return search(db, appId, { q, system: CODING_SCREENS[kind].systemKey, limit: 20 });
}
