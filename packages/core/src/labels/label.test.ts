import { describe, expect, it, vi } from 'vitest';
import { AUDIT_ACTIONS } from '../contracts/audit.js';
import { CDR_IMPORT_STATUSES } from '../contracts/clinical.js';
import { JOB_KINDS, JOB_STATUSES } from '../contracts/jobs.js';
import { OBSERVATION_DOMAINS } from '../contracts/observation.js';
import { RESEARCH_DATASET_STATUSES } from '../contracts/research.js';
import { NOTICE_KINDS } from '../contracts/system.js';
import { GENDER_TABLE, TASK_STATUSES } from '../helpers/code-tables.js';
import type { Locale } from '../messages.js';
import { hasLabel, type LabelFamily, label, setUnknownLabelReporter } from './label.js';

const LOCALES: Locale[] = ['zh-CN', 'en-US'];

/** Each family against the contract union it words. */
const UNIONS: Array<[LabelFamily, readonly (string | number)[]]> = [
  ['auditAction', AUDIT_ACTIONS],
  ['jobKind', JOB_KINDS],
  ['jobStatus', JOB_STATUSES],
  ['taskStatus', TASK_STATUSES],
  ['datasetStatus', RESEARCH_DATASET_STATUSES],
  ['cdrImportStatus', CDR_IMPORT_STATUSES],
  ['noticeKind', NOTICE_KINDS],
  ['auditEntity', ['user', 'disease_library_patient', 'crf_record']],
  ['gender', GENDER_TABLE.map((g) => g.code)],
  ['observationDomain', OBSERVATION_DOMAINS],
  ['researchType', ['cohort', 'caseControl', 'crossSectional', 'registry', 'interventional']],
];

describe('labelling layer', () => {
  it.each(UNIONS)('words every code of %s in both languages, never as the code itself', (family, codes) => {
    for (const code of codes) {
      expect(hasLabel(family, code), `${family} ${code}`).toBe(true);
      for (const locale of LOCALES) {
        const text = label(family, code, locale);
        expect(text.trim(), `${family} ${code} ${locale}`).not.toBe('');
        if (typeof code === 'string' && /[a-z][A-Z.]/.test(code)) expect(text).not.toContain(code);
      }
      expect(label(family, code, 'zh-CN')).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('words research.analysis and failed in the reader’s language', () => {
    expect(label('jobKind', 'research.analysis', 'zh-CN')).toBe('科研统计分析');
    expect(label('jobKind', 'research.analysis', 'en-US')).toBe('Research analysis');
    expect(label('crfRecordStatus', 'locked', 'zh-CN')).toBe('已锁定');
    expect(label('researchType', 'crossSectional', 'en-US')).toBe('Cross-sectional study');
  });

  it('reads an unknown code as the family name with the code and reports it', () => {
    const seen = vi.fn();
    setUnknownLabelReporter(seen);
    try {
      expect(label('jobKind', 'demo.unknownKind', 'zh-CN')).toBe('任务（demo.unknownKind）');
      expect(label('jobKind', 'demo.unknownKind', 'en-US')).toBe('Job (demo.unknownKind)');
      expect(seen).toHaveBeenCalledWith('jobKind', 'demo.unknownKind');
    } finally {
      setUnknownLabelReporter(null);
    }
  });
});
