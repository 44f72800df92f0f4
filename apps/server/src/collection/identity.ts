import type { CollectionTemplateSpec } from '@crdp/core';
import { maskNationalId, maskPhone } from '../clinical/privacy.js';

/**
 * National ID numbers and phone numbers in what the collection screens show (test results,
 * refused rows, change records) are masked for a reader without the patient-details function,
 * as everywhere else in the CDR. Source rows are masked in the columns a template maps to those
 * fields; mapped values and change records by field.
 */
const MASKS: Record<string, (v: string) => string> = { nationalId: maskNationalId, phone: maskPhone };

const masked = (mask: (v: string) => string, v: unknown) =>
  v === null || v === undefined || v === '' ? v : mask(String(v));

/** Mapped values (CDR field → value) as the reader may see them. */
export function maskValues(values: Record<string, unknown>, full: boolean): Record<string, unknown> {
  if (full) return values;
  const out = { ...values };
  for (const [field, mask] of Object.entries(MASKS)) if (field in out) out[field] = masked(mask, out[field]);
  return out;
}

/** A source row as the reader may see it: the columns mapped to identity fields masked. */
export function maskSourceRow(
  row: Record<string, unknown>,
  spec: Pick<CollectionTemplateSpec, 'fields'> | undefined,
  full: boolean,
): Record<string, unknown> {
  if (full || !spec) return row;
  const out = { ...row };
  for (const f of spec.fields) {
    const mask = MASKS[f.field];
    if (mask && f.column && f.column in out) out[f.column] = masked(mask, out[f.column]);
  }
  return out;
}

/** A change record's before/after as the reader may see it. */
export function maskDiff(field: string, v: unknown, full: boolean): unknown {
  const mask = MASKS[field];
  return full || !mask ? v : masked(mask, v);
}
