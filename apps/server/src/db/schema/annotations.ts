import { bigint, index, jsonb, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import { documents } from './clinical.js';
import { appKeys, authored } from './columns.js';
import { appScope } from './policies.js';

/**
 * Annotated clinical documents (标注管理, annotations/README.md): the spans a person marked with a
 * label (the code a cleaning rule writes, SBP, HBV_DNA), one row per document. A document with a
 * row and no spans is a labelled negative: no rule should read anything from it.
 */
export const documentAnnotations = pgTable(
  'document_annotations',
  {
    ...appKeys(),
    documentId: bigint('document_id', { mode: 'number' })
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** [{ start, end, label }] positions in the document's body. */
    spans: jsonb('spans').notNull().default([]),
    ...authored(),
  },
  (t) => [
    uniqueIndex('document_annotations_document').on(t.appId, t.documentId),
    index('document_annotations_app').on(t.appId),
    appScope(),
  ],
);
