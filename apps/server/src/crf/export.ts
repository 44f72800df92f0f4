import { answerItems, type Form, type FormItem } from '@crdp/crf';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { crfFormVersions, crfRecords, patients } from '../db/schema/index.js';
import { csvStream } from '../files/csv.js';
import { type Cell, streamXlsx } from '../files/xlsx.js';
import type { CrfScope } from './actor.js';
import { loadVersion } from './forms.js';
import { cellText, type ExportColumn, exportColumns } from './items.js';

const BATCH = 500;

/** Reads a form's records in id order, one batch at a time: memory stays flat at any size. */
async function* recordBatches(db: Db, appId: number, formId: number) {
  let after = 0;
  for (;;) {
    const rows = await db
      .select({
        id: crfRecords.id,
        subjectCode: crfRecords.subjectCode,
        patientId: crfRecords.patientId,
        patientMrn: patients.mrn,
        status: crfRecords.status,
        version: crfFormVersions.version,
        answers: crfRecords.answers,
        updatedAt: crfRecords.updatedAt,
      })
      .from(crfRecords)
      .innerJoin(crfFormVersions, eq(crfFormVersions.id, crfRecords.versionId))
      .leftJoin(patients, eq(patients.id, crfRecords.patientId))
      .where(
        and(
          eq(crfRecords.appId, appId),
          eq(crfRecords.formId, formId),
          gt(crfRecords.id, after),
          isNull(crfRecords.deletedAt),
        ),
      )
      .orderBy(asc(crfRecords.id))
      .limit(BATCH);
    if (!rows.length) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
    if (rows.length < BATCH) return;
  }
}

const subjectOf = (r: { subjectCode: string; patientMrn: string | null; patientId: number | null }) =>
  r.subjectCode || r.patientMrn || (r.patientId ? `patient-${r.patientId}` : '');

/**
 * The export table, streamed: a header row, then one row per record and one column per item (per
 * blank and matrix row), numbers kept as numbers unless shown as an option's name.
 */
async function* exportTable(
  db: Db,
  actor: CrfScope,
  formId: number,
  cols: ExportColumn[],
  labels: boolean,
): AsyncGenerator<Cell[][]> {
  yield [['record_id', 'subject', 'status', 'version', 'updated_at', ...cols.map((c) => c.name)]];
  for await (const batch of recordBatches(db, actor.appId, formId))
    yield batch.map((r) => {
      const answers = r.answers as Record<string, unknown>;
      return [
        r.id,
        subjectOf(r),
        r.status,
        r.version,
        r.updatedAt.toISOString(),
        ...cols.map((c) => {
          const v = c.read(answers);
          return typeof v === 'number' && (!labels || !c.item.options) ? v : cellText(c.item, v, labels);
        }),
      ];
    });
}

/** CSV: the export table with the spreadsheet formula guard. */
export async function* exportCsv(db: Db, actor: CrfScope, formId: number, labels: boolean) {
  const { version } = await loadVersion(db, actor, formId);
  const cols = exportColumns(version.definition as Form);
  yield* csvStream(exportTable(db, actor, formId, cols, labels), { formulaGuard: true });
}

/** XLSX: the same table, numbers as numbers. */
export async function* exportXlsx(db: Db, actor: CrfScope, formId: number, labels: boolean) {
  const { form, version } = await loadVersion(db, actor, formId);
  const cols = exportColumns(version.definition as Form);
  yield* streamXlsx([{ name: form.name, rows: exportTable(db, actor, formId, cols, labels) }]);
}

// XML 1.0 has no place for most control characters: they are dropped, not escaped.
const dropControls = (s: string) =>
  Array.from(s)
    .filter((c) => {
      const n = c.codePointAt(0)!;
      return n >= 0x20 || n === 0x09 || n === 0x0a || n === 0x0d;
    })
    .join('');
const xml = (s: string) =>
  dropControls(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const oid = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

function dataType(item: FormItem): string {
  if (item.fxTopicData) return 'float';
  const t = `${item.textType ?? ''} ${item.inputType ?? ''}`.toLowerCase();
  if (item.type === 'textQuestion' && t.includes('number')) return 'float';
  if (item.type === 'textQuestion' && t.includes('date')) return 'date';
  if (item.type === 'score' && !item.options?.length) return 'float';
  return 'text';
}

function metadata(form: Form, formName: string, formOid: string, mdv: string, cols: ExportColumn[]) {
  const pages = new Map<number, ExportColumn[]>();
  const pageOf = new Map(answerItems(form).map((x) => [x.item.key, x.page + 1]));
  for (const c of cols) {
    const p = pageOf.get(c.item.key) ?? 1;
    pages.set(p, [...(pages.get(p) ?? []), c]);
  }
  const out: string[] = [];
  out.push(`<MetaDataVersion OID="${mdv}" Name="${mdv}">`);
  out.push('<Protocol><StudyEventRef StudyEventOID="SE.CRF" OrderNumber="1" Mandatory="Yes"/></Protocol>');
  out.push(
    `<StudyEventDef OID="SE.CRF" Name="CRF" Repeating="Yes" Type="Common"><FormRef FormOID="${formOid}" OrderNumber="1" Mandatory="Yes"/></StudyEventDef>`,
  );
  out.push(`<FormDef OID="${formOid}" Name="${xml(formName)}" Repeating="Yes">`);
  for (const p of pages.keys()) out.push(`<ItemGroupRef ItemGroupOID="IG.P${p}" Mandatory="Yes"/>`);
  out.push('</FormDef>');
  for (const [p, list] of pages) {
    const title = form.pages[p - 1]?.title ?? `Page ${p}`;
    out.push(`<ItemGroupDef OID="IG.P${p}" Name="${xml(title)}" Repeating="No">`);
    list.forEach((c, i) => {
      const required = c.item.isRequired === true || c.item.isRequired === 1 || c.item.isRequired === '1';
      out.push(
        `<ItemRef ItemOID="I.${oid(c.name)}" OrderNumber="${i + 1}" Mandatory="${required ? 'Yes' : 'No'}"/>`,
      );
    });
    out.push('</ItemGroupDef>');
  }
  const codeLists: string[] = [];
  for (const c of cols) {
    const options = c.item.type === 'matrix' ? c.item.columns : c.item.options;
    const multi = c.item.type === 'checkbox' || c.item.typeQ === 'multi' || c.item.forM === 'checkbox';
    const hasList = !!options?.length && !multi && c.item.forM !== 'input';
    // Decimals, text length and numeric bounds of a whole item (not of its blanks or rows).
    const whole = c.name === c.item.key;
    const type = dataType(c.item);
    const fixed = whole && c.item.fixed != null && c.item.fixed !== '' ? Number(c.item.fixed) : Number.NaN;
    const maxNub =
      whole && c.item.maxNub != null && c.item.maxNub !== '' ? Number(c.item.maxNub) : Number.NaN;
    const exact = type === 'float' && fixed === 0 ? 'integer' : type;
    const size =
      exact === 'float' && Number.isInteger(fixed) && fixed > 0
        ? ` SignificantDigits="${fixed}"`
        : exact === 'text' && !hasList && Number.isInteger(maxNub) && maxNub > 0
          ? ` Length="${maxNub}"`
          : '';
    out.push(`<ItemDef OID="I.${oid(c.name)}" Name="${xml(c.name)}" DataType="${exact}"${size}>`);
    out.push(`<Question><TranslatedText xml:lang="zh-CN">${xml(c.label)}</TranslatedText></Question>`);
    if (whole && (exact === 'float' || exact === 'integer'))
      for (const [bound, cmp] of [
        [c.item.minVal, 'GE'],
        [c.item.maxVal, 'LE'],
      ] as const)
        if (bound != null && bound !== '' && Number.isFinite(Number(bound)))
          out.push(
            `<RangeCheck Comparator="${cmp}" SoftHard="Hard"><CheckValue>${Number(bound)}</CheckValue></RangeCheck>`,
          );
    if (hasList) out.push(`<CodeListRef CodeListOID="CL.${oid(c.name)}"/>`);
    out.push('</ItemDef>');
    if (hasList) {
      codeLists.push(`<CodeList OID="CL.${oid(c.name)}" Name="${xml(c.name)}" DataType="text">`);
      for (const o of options!)
        codeLists.push(
          `<CodeListItem CodedValue="${xml(String(o.code))}"><Decode><TranslatedText xml:lang="zh-CN">${xml(o.name)}</TranslatedText></Decode></CodeListItem>`,
        );
      codeLists.push('</CodeList>');
    }
  }
  out.push(...codeLists, '</MetaDataVersion>');
  return { xml: out.join('\n'), pages, pageOf };
}

/** CDISC ODM 1.3.2: metadata of the latest version and the clinical data of every record. */
export async function* exportOdm(db: Db, actor: CrfScope, formId: number) {
  const { form, version } = await loadVersion(db, actor, formId);
  const definition = version.definition as Form;
  const cols = exportColumns(definition);
  const studyOid = `CRDP.APP${actor.appId}`;
  const formOid = `F.${formId}`;
  const mdv = `MDV.${formId}.V${version.version}`;
  const meta = metadata(definition, form.name, formOid, mdv, cols);
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" FileType="Snapshot" FileOID="CRDP.F${formId}.${Date.now()}" CreationDateTime="${new Date().toISOString()}" ODMVersion="1.3.2" SourceSystem="CRDP">\n`;
  yield `<Study OID="${studyOid}"><GlobalVariables><StudyName>${xml(form.name)}</StudyName><StudyDescription>${xml(form.category || form.name)}</StudyDescription><ProtocolName>${xml(form.name)}</ProtocolName></GlobalVariables>\n`;
  yield `${meta.xml}\n</Study>\n<ClinicalData StudyOID="${studyOid}" MetaDataVersionOID="${mdv}">\n`;
  for await (const batch of recordBatches(db, actor.appId, formId)) {
    const out: string[] = [];
    for (const r of batch) {
      const answers = r.answers as Record<string, unknown>;
      out.push(
        `<SubjectData SubjectKey="${xml(subjectOf(r) || `record-${r.id}`)}"><StudyEventData StudyEventOID="SE.CRF" StudyEventRepeatKey="${r.id}"><FormData FormOID="${formOid}" FormRepeatKey="${r.id}">`,
      );
      for (const [p, list] of meta.pages) {
        const items = list
          .map((c) => ({ c, v: cellText(c.item, c.read(answers), false) }))
          .filter((x) => x.v !== '');
        if (!items.length) continue;
        out.push(`<ItemGroupData ItemGroupOID="IG.P${p}">`);
        for (const { c, v } of items) out.push(`<ItemData ItemOID="I.${oid(c.name)}" Value="${xml(v)}"/>`);
        out.push('</ItemGroupData>');
      }
      out.push('</FormData></StudyEventData></SubjectData>');
    }
    yield `${out.join('\n')}\n`;
  }
  yield '</ClinicalData>\n</ODM>\n';
}
