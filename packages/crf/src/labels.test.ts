import { hasLabel, label } from '@crdp/core';
import { describe, expect, it } from 'vitest';
import { CRF_FORM_STATUSES, CRF_RECORD_STATUSES } from './contracts.js';
import { ITEM_TYPES } from './types.js';

describe('CRF statuses in the labelling layer of @crdp/core', () => {
  it('words every record and form status in both languages', () => {
    for (const s of CRF_RECORD_STATUSES) {
      expect(hasLabel('crfRecordStatus', s), s).toBe(true);
      expect(label('crfRecordStatus', s, 'zh-CN')).toMatch(/[\u4e00-\u9fff]/);
      expect(label('crfRecordStatus', s, 'en-US')).not.toBe(s);
    }
    for (const s of CRF_FORM_STATUSES) expect(hasLabel('crfFormStatus', s), s).toBe(true);
  });
});

describe('CRF item types in the labelling layer of @crdp/core', () => {
  it('words every item type in both languages', () => {
    for (const type of ITEM_TYPES) {
      expect(hasLabel('crfItemType', type), type).toBe(true);
      expect(label('crfItemType', type, 'zh-CN')).toMatch(/[\u4e00-\u9fff]/);
      expect(label('crfItemType', type, 'en-US')).not.toBe(type);
    }
  });
});
