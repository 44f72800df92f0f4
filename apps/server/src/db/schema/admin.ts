import { boolean, index, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';
import { apps } from './identity.js';
import { parentKey } from './keys.js';
import { appScope } from './policies.js';

/**
 * The disease dictionary of an app (system settings, maintain-disease): the names disease
 * libraries and research subjects choose from. Per app, like every row of tenant data.
 */
export const diseases = pgTable(
  'diseases',
  {
    diseaseId: serial('disease_id').primaryKey(),
    appId: parentKey('app_id', () => apps.appId),
    name: text('name').notNull(),
    icd10: text('icd10').notNull().default(''),
    category: text('category').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('diseases_app_name').on(t.appId, t.name),
    index('diseases_app_icd10').on(t.appId, t.icd10),
    appScope(),
  ],
);
