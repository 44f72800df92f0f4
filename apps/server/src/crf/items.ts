/** The export columns live with the ODM writer in `@crdp/crf` (pure, shared by CSV, XLSX and ODM). */
export { cellText, type ExportColumn, exportColumns } from '@crdp/crf';
