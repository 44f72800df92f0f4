import type { DatasetColumn } from './api';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** A dataset column as the screen names it: a survival column's part in the user's language, else its label. */
export const columnLabel = (t: Translate, c: Pick<DatasetColumn, 'label' | 'survival'>) =>
  c.survival ? t(`columns.${c.survival.part}`, { of: c.survival.of }) : c.label;
