import { index, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
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
