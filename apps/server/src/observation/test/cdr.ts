import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** Calls the API as the browser does, answered as status and JSON. */
export async function call(
  app: FastifyInstance,
  method: string,
  url: string,
  key: string,
  payload?: unknown,
  lang = 'zh-CN',
) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: { WeAppAuthorization: key, 'accept-language': lang },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  let body: unknown = null;
  try {
    body = res.json();
  } catch {
    body = null;
  }
  return {
    status: res.statusCode,
    // biome-ignore lint/suspicious/noExplicitAny: a test reads each answer's own shape
    body: body as { data: any; message?: string },
    raw: res.rawPayload,
    headers: res.headers,
  };
}

/**
 * A small CDR through the API: per patient an inpatient stay (admitted on `day`) in `department`
 * with a diagnosis, two lab results, an operation, a drug order and a vital sign.
 */
export async function smallCdr(
  app: FastifyInstance,
  key: string,
  people: Array<{ mrn: string; day: string; department: string }>,
) {
  const made: Array<{ patientId: number; visitId: number; labIds: number[] }> = [];
  const rec = async (pid: number, table: string, row: Record<string, unknown>) => {
    const r = await call(app, 'POST', `/api/v0.1/cdr/patients/${pid}/records`, key, { table, row });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as number;
  };
  for (const p of people) {
    const r = await call(app, 'POST', '/api/v0.1/cdr/patients', key, {
      mrn: p.mrn,
      name: `患者${p.mrn}`,
      gender: 1,
      birthDate: '1970-01-01',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const pid = r.body.data.id as number;
    const at = (h: number) => `${p.day}T${String(h).padStart(2, '0')}:00:00+08:00`;
    const visitId = await rec(pid, 'visits', { kind: 'inpatient', department: p.department, admitAt: at(8) });
    await rec(pid, 'diagnoses', {
      visitId,
      icd10: 'I10',
      name: ' 高血压 ',
      kind: 'main',
      diagnosedAt: at(9),
    });
    const labIds = [
      await rec(pid, 'labResults', {
        visitId,
        itemCode: 'ALT',
        itemName: '丙氨酸氨基转移酶',
        valueNum: 40,
        unit: 'U/L',
        collectedAt: at(10),
      }),
      await rec(pid, 'labResults', {
        visitId,
        itemCode: 'ALT',
        itemName: '丙氨酸氨基转移酶',
        valueNum: 55,
        unit: 'U/L',
        collectedAt: at(15),
      }),
    ];
    await rec(pid, 'operations', { visitId, code: '51.23', name: '腹腔镜下胆囊切除术', operatedAt: at(11) });
    await rec(pid, 'orders', {
      visitId,
      category: 'drug',
      code: 'ASP',
      name: '阿司匹林肠溶片',
      dose: '100',
      doseUnit: 'mg',
      startAt: at(12),
    });
    await rec(pid, 'orders', { visitId, category: 'other', name: '一级护理', startAt: at(12) });
    await rec(pid, 'vitalSigns', {
      visitId,
      itemName: '体温',
      value: '36.8',
      itemUnit: '℃',
      recordDt: at(13),
    });
    made.push({ patientId: pid, visitId, labIds });
  }
  return made;
}
