import { index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { appId, authored } from './columns.js';
import { appScope, oneOf } from './policies.js';

/*
 * The variable library (variables/README.md): an app's research variables, each with its
 * derivation from the clinical data (the `variableDerivation` contract), worked out on demand.
 */

export const variables = pgTable(
  'variables',
  {
    id: serial('id').primaryKey(),
    appId: appId(),
    code: text('code').notNull(),
    labelZh: text('label_zh').notNull(),
    labelEn: text('label_en').notNull().default(''),
    type: text('type').notNull(),
    unit: text('unit').notNull().default(''),
    /** [{ code, labelZh, labelEn }] for category variables. */
    valueSet: jsonb('value_set').notNull().default([]),
    description: text('description').notNull().default(''),
    derivation: jsonb('derivation').notNull(),
    ...authored(),
  },
  (t) => [
    uniqueIndex('variables_app_code').on(t.appId, t.code),
    index('variables_app').on(t.appId),
    oneOf('variables_type', t.type, ['number', 'text', 'date', 'category']),
    appScope(),
  ],
);

/** A named collection of the app's variables for a study (变量组). */
export const variableGroups = pgTable(
  'variable_groups',
  {
    id: serial('id').primaryKey(),
    appId: appId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    ...authored(),
  },
  (t) => [uniqueIndex('variable_groups_app_name').on(t.appId, t.name), appScope()],
);

/** The variables of a group, in their order; a deleted variable leaves its groups. */
export const variableGroupMembers = pgTable(
  'variable_group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => variableGroups.id, { onDelete: 'cascade' }),
    variableId: integer('variable_id')
      .notNull()
      .references(() => variables.id, { onDelete: 'cascade' }),
    appId: appId(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.variableId] }),
    index('variable_group_members_variable').on(t.variableId),
    appScope(),
  ],
);
