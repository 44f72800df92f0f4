import type { VariableGroup } from '@crdp/core';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { variableGroupMembers, variableSetMembers, variables } from '../db/schema/index.js';

/**
 * Variable groups (变量组) and variable sets (变量集) are both an app's variables in order, each
 * kept in its member table (one row a variable, with its position), and both answer as a
 * `VariableGroup`: their views are read here.
 */
const MEMBER_TABLES = {
  group: { members: variableGroupMembers, owner: variableGroupMembers.groupId },
  set: { members: variableSetMembers, owner: variableSetMembers.setId },
};

/** The columns of a group or set row that its view shows. */
interface Collection {
  id: number;
  name: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The views of some groups (or sets), each with its variables in its order. */
export async function collectionViews(
  db: Tx,
  kind: keyof typeof MEMBER_TABLES,
  rows: Collection[],
): Promise<VariableGroup[]> {
  const { members, owner } = MEMBER_TABLES[kind];
  const ids = rows.map((r) => r.id);
  const list = ids.length
    ? await db
        .select({
          owner,
          id: variables.id,
          code: variables.code,
          labelZh: variables.labelZh,
          labelEn: variables.labelEn,
          type: variables.type,
        })
        .from(members)
        .innerJoin(variables, eq(variables.id, members.variableId))
        .where(inArray(owner, ids))
        .orderBy(asc(members.position))
    : [];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    variables: list
      .filter((m) => m.owner === r.id)
      .map(({ owner: _, ...m }) => ({ ...m, type: m.type as VariableGroup['variables'][number]['type'] })),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}
