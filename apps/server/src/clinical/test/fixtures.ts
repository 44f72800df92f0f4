import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';

/** A patient with an exam report, and a finished FHIR import (so a job), in the caller's app. */
export async function makeClinicalObjects(app: FastifyInstance, adminKey: string) {
  const p = await post(
    app,
    '/api/v0.1/cdr/patients',
    { mrn: 'MATRIX-1', name: '矩阵患者', gender: 1, birthDate: '1970-01-01' },
    adminKey,
  );
  await post(
    app,
    `/api/v0.1/cdr/patients/${p.body.data.id}/records`,
    {
      table: 'examReports',
      row: { modality: 'CT', bodyPart: '上腹部', conclusion: '肝硬化', examAt: '2024-01-02' },
    },
    adminKey,
  );
  await post(
    app,
    '/api/v0.1/imports/fhir',
    {
      fileName: 'matrix.json',
      bundle: {
        resourceType: 'Bundle',
        entry: [{ resource: { resourceType: 'Patient', id: 'mx', name: [{ text: '矩阵' }] } }],
      },
    },
    adminKey,
  );
  await app.jobs.drain();
}
