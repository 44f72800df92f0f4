import type { CodingKind } from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';

/**
 * Where each kind's local terms live in the CDR, and the view (migration 0033) that shows its
 * rows with the mapped code beside the original text. One generic implementation reads these.
 */
export interface CodingSource {
  /** The CDR table and the text column coded. */
  table: SQL;
  column: SQL;
  /** Rows of the table that are of this kind (drug orders among all orders). */
  filter: SQL;
  /** The read-time view: original_text, source_code, system_key, code, display_zh. */
  view: SQL;
}

export const CODING_SOURCES: Record<CodingKind, CodingSource> = {
  disease: {
    table: sql.raw('diagnoses'),
    column: sql.raw('name'),
    filter: sql`true`,
    view: sql.raw('cdr_coded_diagnoses'),
  },
  surgery: {
    table: sql.raw('operations'),
    column: sql.raw('name'),
    filter: sql`true`,
    view: sql.raw('cdr_coded_operations'),
  },
  lab: {
    table: sql.raw('lab_results'),
    column: sql.raw('item_name'),
    filter: sql`true`,
    view: sql.raw('cdr_coded_lab_results'),
  },
  drug: {
    table: sql.raw('orders'),
    column: sql.raw('name'),
    filter: sql.raw(`category = 'drug'`),
    view: sql.raw('cdr_coded_drug_orders'),
  },
};
