import type { RecordQcCategory, RecordQcCheck, RecordQcSeverity } from '../contracts/record-qc.js';
import type { Locale } from '../messages.js';
import { label } from './label.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** The built-in checks of medical-record QC (病历质控). */
export const RECORD_QC_CHECK_LABELS = {
  admission_note_timely: both('入院记录及时完成', 'Admission note on time'),
  first_progress_timely: both('首次病程记录及时完成', 'First progress note on time'),
  discharge_summary_timely: both('出院记录及时完成', 'Discharge summary on time'),
  discharge_summary_present: both('出院记录存在', 'Discharge summary present'),
  admission_note_sections: both('入院记录内容完整', 'Admission note sections complete'),
  progress_note_copied: both('病程记录复制粘贴', 'Progress note copied'),
  surgery_record_timely: both('手术记录及时完成', 'Operation record on time'),
  discharge_diagnosis_in_notes: both('出院诊断与病历记录一致', 'Discharge diagnosis in the notes'),
  operation_record_matches: both('手术记录与手术编码一致', 'Operation record matches the coded operation'),
} as const satisfies Record<RecordQcCheck, LabelText>;

export const RECORD_QC_CATEGORY_LABELS = {
  timeliness: both('时效性', 'Timeliness'),
  completeness: both('完整性', 'Completeness'),
  consistency: both('一致性', 'Consistency'),
  content: both('内容', 'Content'),
} as const satisfies Record<RecordQcCategory, LabelText>;

export const RECORD_QC_SEVERITY_LABELS = {
  warning: both('一般缺陷', 'Minor'),
  error: both('严重缺陷', 'Major'),
} as const satisfies Record<RecordQcSeverity, LabelText>;

/** What a fault's check wrote down about it (record_qc_faults.detail). */
export interface RecordQcDetail {
  hours?: number;
  /** Hours after the reference time the document was written; absent when there is no document. */
  lateHours?: number | null;
  /** Section keys (cleaningSection) the note lacks. */
  missing?: string[];
  /** The discharge diagnosis no note names. */
  diagnosis?: string;
  /** The coded operation (code and name) the operation record does not name. */
  operation?: string;
  code?: string;
}

/** A fault in words: what is wrong with the visit's record, in the reader's language. */
export function recordQcMessage(check: RecordQcCheck, d: RecordQcDetail, locale: Locale): string {
  const zh = locale === 'zh-CN';
  const h = d.hours ?? 0;
  const late = d.lateHours;
  switch (check) {
    case 'admission_note_timely':
    case 'first_progress_timely': {
      const doc =
        check === 'admission_note_timely'
          ? ['入院记录', 'admission note']
          : ['首次病程记录', 'first progress note'];
      if (late == null)
        return zh ? `入院 ${h} 小时内没有${doc[0]}` : `No ${doc[1]} within ${h} h of admission`;
      return zh
        ? `${doc[0]}在入院后 ${late} 小时完成，超过 ${h} 小时`
        : `The ${doc[1]} was written ${late} h after admission (limit ${h} h)`;
    }
    case 'discharge_summary_timely':
      return zh
        ? `出院记录在出院后 ${late ?? '?'} 小时完成，超过 ${h} 小时`
        : `The discharge summary was written ${late ?? '?'} h after discharge (limit ${h} h)`;
    case 'discharge_summary_present':
      return zh ? '已出院但没有出院记录' : 'Discharged without a discharge summary';
    case 'admission_note_sections': {
      const names = (d.missing ?? []).map((k) => label('cleaningSection', k, locale));
      return zh ? `入院记录缺少：${names.join('、')}` : `The admission note lacks: ${names.join(', ')}`;
    }
    case 'progress_note_copied':
      return zh ? '病程记录与前一天的记录完全相同' : 'The progress note is identical to the previous day’s';
    case 'surgery_record_timely':
      if (late == null)
        return zh
          ? `手术后 ${h} 小时内没有手术记录（${d.operation ?? ''}）`
          : `No operation record within ${h} h of the operation (${d.operation ?? ''})`;
      return zh
        ? `手术记录在术后 ${late} 小时完成，超过 ${h} 小时`
        : `The operation record was written ${late} h after the operation (limit ${h} h)`;
    case 'discharge_diagnosis_in_notes':
      return zh
        ? `出院诊断“${d.diagnosis ?? ''}”未见于本次住院的任何病历记录`
        : `The discharge diagnosis “${d.diagnosis ?? ''}” appears in none of the stay’s notes`;
    case 'operation_record_matches':
      return zh
        ? `手术记录未写明编码的手术：${d.code ? `${d.code} ` : ''}${d.operation ?? ''}`
        : `The operation record does not name the coded operation ${d.code ? `${d.code} ` : ''}${d.operation ?? ''}`;
  }
}
