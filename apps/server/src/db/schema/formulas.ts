import {
  bigint,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { patients } from './clinical.js';
import { appId, appKeys, appNamed, at, authored, createdBy } from './columns.js';
import { parentKey } from './keys.js';
import { appScope } from './policies.js';

/*
 * Derived data (formulas/README.md): an app's formulas, the indicator templates that group
 * them, its assessment scales and each filling of a scale for a patient.
 */

/** A computed indicator: an expression of @crdp/crf's formula language and its variables. */
export const formulas = pgTable(
  'formulas',
  {
    ...appNamed(),
    unit: text('unit').notNull().default(''),
    decimals: integer('decimals').notNull().default(2),
    expression: text('expression').notNull(),
    /** [{ name, source, code }] */
    variables: jsonb('variables').notNull().default([]),
    /** The built-in formula it was added from; '' for the app's own. */
    builtinKey: text('builtin_key').notNull().default(''),
    ...authored(),
  },
  (t) => [index('formulas_app').on(t.appId), appScope()],
);

/** A named, ordered group of formulas for disease libraries to reuse. */
export const indicatorTemplates = pgTable(
  'indicator_templates',
  {
    ...appNamed(),
    ...authored(),
  },
  (t) => [index('indicator_templates_app').on(t.appId), appScope()],
);

/** The formulas of a template in order; a formula in a template cannot be deleted. */
export const indicatorTemplateFormulas = pgTable(
  'indicator_template_formulas',
  {
    templateId: parentKey('template_id', () => indicatorTemplates.id),
    formulaId: integer('formula_id')
      .notNull()
      .references(() => formulas.id),
    appId: appId(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.formulaId] }),
    index('indicator_template_formulas_formula').on(t.formulaId),
    index('indicator_template_formulas_app').on(t.appId),
    appScope(),
  ],
);

/** A scored instrument: items with options and points, bands over the total. */
export const assessmentScales = pgTable(
  'assessment_scales',
  {
    ...appNamed(),
    /** { items: [{ key, title, options: [{ code, label, points }] }], bands: [{ min, max, label, advice }] } */
    definition: jsonb('definition').notNull(),
    builtinKey: text('builtin_key').notNull().default(''),
    ...authored(),
  },
  (t) => [index('assessment_scales_app').on(t.appId), appScope()],
);

/** One filling of a scale for a patient: the answers, and the total and band worked out then. */
export const scaleAssessments = pgTable(
  'scale_assessments',
  {
    ...appKeys(),
    scaleId: integer('scale_id')
      .notNull()
      .references(() => assessmentScales.id),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    visitId: bigint('visit_id', { mode: 'number' }),
    answers: jsonb('answers').notNull(),
    total: doublePrecision('total').notNull(),
    band: text('band').notNull().default(''),
    note: text('note').notNull().default(''),
    assessedAt: at('assessed_at').notNull().defaultNow(),
    createdBy: createdBy(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('scale_assessments_patient').on(t.patientId, t.assessedAt),
    index('scale_assessments_scale').on(t.scaleId),
    index('scale_assessments_app').on(t.appId),
    appScope(),
  ],
);
