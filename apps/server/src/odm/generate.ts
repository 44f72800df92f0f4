import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type DataElementDefinition,
  label,
  OBSERVATION_DOMAINS,
  type ObservationDomain,
  ODM_DEFAULTS,
  ODM_JOB_KIND,
  type OdmElementBinding,
} from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import type { JobContext } from '../jobs/runner.js';
import { type OdmElement, type OdmObservation, odmHead, odmSubject, odmTail } from './write.js';

/*
 * The generation job (kind `odm.generate`): one ODM 1.3.2 file of a topic's recruited patients,
 * written to DATA_DIR/odm/app-<app>/odm-<job>.xml through a file stream, a batch of patients at a
 * time (the app's batch size, concurrency settings): per batch one query of observations and one
 * per bound data element. Only a batch is ever in memory; the stream's back-pressure is kept
 * (a write that fills its buffer waits for `drain`). The file appears under its name only when
 * complete (written as `.part`, then renamed).
 */

export const odmFilePath = (dataDir: string, appId: number, jobId: number) =>
  path.join(dataDir, 'odm', `app-${appId}`, `odm-${jobId}.xml`);

export interface OdmResult {
  bytes: number;
  subjects: number;
  items: number;
  fileName: string;
}

/** The batch size of the app's generations (settings, else the default). */
export async function batchSizeOf(db: Db, appId: number): Promise<number> {
  const [row] = rowsOf<{ batch_size: number | null }>(
    await db.execute(
      sql`select batch_size from job_kind_settings where app_id = ${appId} and kind = ${ODM_JOB_KIND}`,
    ),
  );
  return Number(row?.batch_size ?? ODM_DEFAULTS.batchSize);
}

const DOMAIN_NAMES = Object.fromEntries(
  OBSERVATION_DOMAINS.map((d) => [
    d,
    { zh: label('observationDomain', d, 'zh-CN'), en: label('observationDomain', d, 'en-US') },
  ]),
) as Record<ObservationDomain, { zh: string; en: string }>;

export function generateJob(dataDir: string) {
  return async ({ db, job, progress, signal }: JobContext): Promise<OdmResult> => {
    const { topicId, fileName } = job.params as { topicId: number; fileName: string };
    const [topic] = rowsOf<{
      id: number;
      subject_id: number;
      name: string;
      description: string;
      domains: ObservationDomain[];
      from_date: string | null;
      to_date: string | null;
      elements: OdmElementBinding[];
    }>(
      await db.execute(sql`select t.id, t.subject_id, s.name, s.description, t.domains,
          to_char(t.from_date, 'YYYY-MM-DD') as from_date, to_char(t.to_date, 'YYYY-MM-DD') as to_date, t.elements
        from odm_topics t join research_subjects s on s.id = t.subject_id
        where t.id = ${topicId} and t.app_id = ${job.appId}`),
    );
    if (!topic) throw new Error('the topic was deleted');
    const batch = await batchSizeOf(db, job.appId);
    const bindings = topic.elements ?? [];
    const defs = bindings.length
      ? rowsOf<{ id: number; code: string; definition: DataElementDefinition }>(
          await db.execute(sql`select e.id, e.code, v.definition from data_elements e
            join data_element_versions v on v.element_id = e.id and v.version = e.version
            where e.app_id = ${job.appId} and e.id in (${sql.join(
              bindings.map((b) => sql`${b.elementId}`),
              sql`, `,
            )})`),
        )
      : [];
    const byId = new Map(defs.map((d) => [Number(d.id), d]));
    const elements = bindings
      .filter((b) => byId.has(b.elementId))
      .map((b) => {
        const d = byId.get(b.elementId)!;
        const element: OdmElement = {
          code: d.code,
          name: d.definition.name,
          type: d.definition.type,
          unit: d.definition.unit ?? '',
          valueSet: d.definition.valueSet ?? [],
        };
        return { binding: b, element };
      });
    const [{ n: total } = { n: 0 }] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from research_enrolments
        where subject_id = ${topic.subject_id} and app_id = ${job.appId}`),
    );
    const file = odmFilePath(dataDir, job.appId, job.id);
    await mkdir(path.dirname(file), { recursive: true });
    const part = `${file}.part`;
    const out = createWriteStream(part);
    const failed = new Promise<never>((_, reject) => out.once('error', reject));
    failed.catch(() => {});
    const write = async (chunk: string) => {
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
    };
    let subjects = 0;
    let items = 0;
    try {
      await write(
        odmHead(
          {
            studyOid: `CRDP.APP${job.appId}.S${topic.subject_id}`,
            mdvOid: `MDV.ODM.T${topic.id}`,
            fileOid: `CRDP.ODM.T${topic.id}.J${job.id}`,
            name: topic.name,
            description: topic.description,
            domains: topic.domains,
            domainNames: DOMAIN_NAMES,
            elements: elements.map((e) => e.element),
          },
          new Date(),
        ),
      );
      const range = sql`${topic.from_date ? sql`and o.start_at >= ${topic.from_date}::date` : sql``}
        ${topic.to_date ? sql`and o.start_at < ${topic.to_date}::date + 1` : sql``}`;
      let after = 0;
      for (;;) {
        if (signal.aborted) throw signal.reason;
        const patients = rowsOf<{ id: string }>(
          await db.execute(sql`select patient_id::text as id from research_enrolments
            where subject_id = ${topic.subject_id} and app_id = ${job.appId} and patient_id > ${after}
            order by patient_id limit ${batch}`),
        ).map((r) => Number(r.id));
        if (!patients.length) break;
        const ids = sql.join(
          patients.map((p) => sql`${p}`),
          sql`, `,
        );
        const obs = topic.domains.length
          ? rowsOf<{
              patient_id: string;
              domain: ObservationDomain;
              concept: string;
              local_code: string;
              start_at: string | Date;
              end_at: string | Date | null;
              value_num: number | null;
              value_text: string;
              unit: string;
              department: string;
            }>(
              await db.execute(sql`select o.patient_id::text, o.domain, o.concept, o.local_code, o.start_at, o.end_at,
                  o.value_num, o.value_text, o.unit, o.department
                from observations o
                where o.app_id = ${job.appId} and o.patient_id in (${ids})
                  and o.domain in (${sql.join(
                    topic.domains.map((d) => sql`${d}`),
                    sql`, `,
                  )}) ${range}
                order by o.patient_id, o.domain, o.start_at, o.id`),
            )
          : [];
        const values = new Map<string, string>();
        for (const { binding } of elements) {
          const rows = rowsOf<{ patient_id: string; value_num: number | null; value_text: string }>(
            await db.execute(sql`select distinct on (o.patient_id) o.patient_id::text, o.value_num, o.value_text
              from observations o
              where o.app_id = ${job.appId} and o.patient_id in (${ids}) and o.domain = ${binding.domain}
                and o.concept = ${binding.concept} ${range}
              order by o.patient_id, o.start_at ${sql.raw(binding.pick === 'first' ? 'asc' : 'desc')}, o.id`),
          );
          for (const r of rows)
            values.set(
              `${r.patient_id}:${binding.elementId}`,
              r.value_num !== null ? String(r.value_num) : (r.value_text ?? ''),
            );
        }
        const byPatient = new Map<number, OdmObservation[]>();
        for (const o of obs) {
          const p = Number(o.patient_id);
          const list = byPatient.get(p) ?? [];
          list.push({
            domain: o.domain,
            concept: o.concept,
            localCode: o.local_code,
            startAt: new Date(o.start_at),
            endAt: o.end_at ? new Date(o.end_at) : null,
            valueNum: o.value_num === null ? null : Number(o.value_num),
            valueText: o.value_text,
            unit: o.unit,
            department: o.department,
          });
          byPatient.set(p, list);
        }
        let chunk = '';
        for (const p of patients) {
          const s = odmSubject(
            `S${topic.subject_id}-P${p}`,
            elements.map((e) => ({
              element: e.element,
              value: values.get(`${p}:${e.binding.elementId}`) ?? null,
            })),
            byPatient.get(p) ?? [],
            topic.domains,
          );
          chunk += s.xml;
          items += s.items;
          subjects++;
        }
        await write(chunk);
        after = patients[patients.length - 1]!;
        await progress(Math.min(99, (subjects / Math.max(1, Number(total))) * 100));
      }
      await write(odmTail());
      out.end();
      await Promise.race([once(out, 'finish'), failed]);
      await rename(part, file);
    } catch (e) {
      out.destroy();
      await rm(part, { force: true });
      throw e;
    }
    const { size } = await stat(file);
    return { bytes: size, subjects, items, fileName };
  };
}
