import { CODING_KINDS } from '@crdp/core';
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { diseases } from './admin.js';
import { appId, appKeys, appNamed, authored } from './columns.js';
import { diseaseLibraries } from './disease-library.js';
import { formulas } from './formulas.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';
import { researchSubjects } from './research.js';

/*
 * Data models (data-models/README.md): a hospital's own versioned models and its disease model
 * templates, each a set of tables and variables. The CDISC models (SDTMIG, CDASHIG) are shipped
 * files (apps/server/cdisc), not rows; a hospital model copied from one names it in `standard`.
 */

export const dataModels = pgTable(
  'data_models',
  {
    ...appKeys(),
    /** The model's code; every version of a model has the same code. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** `hospital` (模型维护) or `template` (专病模型模板). */
    kind: text('kind').notNull(),
    version: integer('version').notNull().default(1),
    /** The CDISC standard the model was copied from ('SDTMIG', 'CDASHIG') or '' for the app's own. */
    standard: text('standard').notNull().default(''),
    standardVersion: text('standard_version').notNull().default(''),
    /** The model (template or earlier version) this one was made from. */
    basedOn: integer('based_on'),
    diseaseId: integer('disease_id').references(() => diseases.diseaseId, { onDelete: 'set null' }),
    libraryId: integer('library_id').references(() => diseaseLibraries.id, { onDelete: 'set null' }),
    subjectId: integer('subject_id').references(() => researchSubjects.id, { onDelete: 'set null' }),
    description: text('description').notNull().default(''),
    ...authored(),
  },
  (t) => [
    uniqueIndex('data_models_app_code_version').on(t.appId, t.code, t.version),
    index('data_models_app_kind').on(t.appId, t.kind),
    oneOf('data_models_kind', t.kind, ['hospital', 'template']),
    appScope(),
  ],
);

export const dataModelTables = pgTable(
  'data_model_tables',
  {
    ...appKeys(),
    modelId: parentKey('model_id', () => dataModels.id),
    name: text('name').notNull(),
    label: text('label').notNull().default(''),
    /** The SDTM observation class, or ''. */
    tableClass: text('table_class').notNull().default(''),
    structure: text('structure').notNull().default(''),
    position: integer('position').notNull(),
  },
  (t) => [uniqueIndex('data_model_tables_model_name').on(t.modelId, t.name), appScope()],
);

export const dataModelVariables = pgTable(
  'data_model_variables',
  {
    ...appKeys(),
    modelId: parentKey('model_id', () => dataModels.id),
    tableId: parentKey('table_id', () => dataModelTables.id),
    name: text('name').notNull(),
    label: text('label').notNull().default(''),
    /** `Char` or `Num`, as SDTM and SAS transport files know them. */
    type: text('type').notNull(),
    role: text('role').notNull().default(''),
    /** Req / Exp / Perm (SDTM), HR / R/C / O (CDASH), or ''. */
    core: text('core').notNull().default(''),
    /** The CDISC CT codelist (C-code) its values come from, or ''. */
    codelist: text('codelist').notNull().default(''),
    /** The coding area's kind whose mappings code this variable's local values, or null. */
    codingKind: text('coding_kind'),
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('data_model_variables_table_name').on(t.tableId, t.name),
    index('data_model_variables_model').on(t.modelId),
    oneOf('data_model_variables_type', t.type, ['Char', 'Num']),
    oneOf('data_model_variables_coding_kind', t.codingKind, CODING_KINDS),
    appScope(),
  ],
);

/** Indicator groups (指标组): the app's computed indicators (formulas) grouped, in order, optionally for one model. */
export const dataModelIndicatorGroups = pgTable(
  'data_model_indicator_groups',
  {
    ...appNamed(),
    modelId: integer('model_id').references(() => dataModels.id, { onDelete: 'set null' }),
    ...authored(),
  },
  (t) => [uniqueIndex('data_model_indicator_groups_app_name').on(t.appId, t.name), appScope()],
);

export const dataModelIndicatorGroupMembers = pgTable(
  'data_model_indicator_group_members',
  {
    groupId: parentKey('group_id', () => dataModelIndicatorGroups.id),
    formulaId: parentKey('formula_id', () => formulas.id),
    appId: appId(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.formulaId] }),
    index('data_model_indicator_group_members_formula').on(t.formulaId),
    appScope(),
  ],
);
