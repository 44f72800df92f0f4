import type { Form } from '@crdp/crf';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { apps, patients } from '../db/schema/index.js';

/**
 * A small liver-disease form used by the API tests, the matrix fixture and the bench: a
 * required number with bounds, a computed BMI, a choice that shows a follow-up item.
 */
export const LIVER_FORM: Form = {
  pages: [
    {
      key: 'base',
      title: '基本信息',
      items: [
        {
          key: 'weight',
          type: 'textQuestion',
          title: '体重 (kg)',
          textType: 'number',
          isRequired: 1,
          minVal: 1,
          maxVal: 400,
        },
        {
          key: 'height',
          type: 'textQuestion',
          title: '身高 (cm)',
          textType: 'number',
          isRequired: 1,
          minVal: 30,
          maxVal: 260,
        },
        {
          key: 'bmi',
          type: 'textQuestion',
          title: 'BMI',
          textType: 'number',
          fixed: 1,
          fxTopicData: { func: 'bmi', fields: ['weight', 'height'] },
        },
        {
          key: 'hbsag',
          type: 'radio',
          title: '乙肝表面抗原',
          isRequired: 1,
          options: [
            { name: '阴性', code: 'neg' },
            { name: '阳性', code: 'pos' },
          ],
        },
        {
          key: 'hbvDna',
          type: 'textQuestion',
          title: 'HBV DNA (IU/mL)',
          textType: 'number',
          isHide: 1,
          isRequired: 1,
        },
        { key: 'note', type: 'textQuestion', title: '备注', textType: 'textarea', maxNub: 200 },
      ],
    },
  ],
  showRules: [{ indicatorName: 'hbsag', condition: 'equals', indicatorVal: 'pos', selectItems: ['hbvDna'] }],
};

/**
 * Patients of the demo app (or the given app) with the given medical record numbers, straight into the table: a
 * record's subject code must name a patient (or a subject that already has records), so the
 * tests that fill records by code register those patients first. Answers the ids by MRN.
 */
export async function registerPatients(app: FastifyInstance, mrns: readonly string[], appId?: number) {
  const [demo] = appId ? [{ appId }] : await app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
  const rows = await app.db
    .insert(patients)
    .values(
      mrns.map((mrn, i) => ({
        appId: demo!.appId,
        mrn,
        name: `CRF受试者${i + 1}`,
        source: 'manual',
        sourceId: `crf-test-${mrn}`,
      })),
    )
    .returning({ id: patients.id, mrn: patients.mrn });
  return Object.fromEntries(rows.map((r) => [r.mrn, r.id])) as Record<string, number>;
}
