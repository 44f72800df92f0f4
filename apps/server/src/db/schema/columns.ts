import { integer, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { apps, users } from './identity.js';
import { parentKey } from './keys.js';

/*
 * Columns many tables share, written once. identity.ts does not use these (this file imports
 * its tables for the foreign keys).
 */

/** A timestamp with time zone: every instant CRDP stores. */
export const at = (name: string) => timestamp(name, { withTimezone: true });

/** The tenant column every row of app data carries; rows go with their app. */
export const appId = () => parentKey('app_id', () => apps.appId);

/** The serial id and the tenant column an app's own row starts with. */
export const appKeys = () => ({ id: serial('id').primaryKey(), appId: appId() });

/** An app's object people name and describe (its name is unique in the app where an index says so). */
export const appNamed = () => ({
  ...appKeys(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
});

/** Who made the row; the row stays when the user goes. */
export const createdBy = () => integer('created_by').references(() => users.userId, { onDelete: 'set null' });
export const createdAt = () => at('created_at').notNull().defaultNow();
export const updatedAt = () => at('updated_at').notNull().defaultNow();

/** Who made the row and when (a row that never changes: a run, a log entry). */
export const madeBy = () => ({ createdBy: createdBy(), createdAt: createdAt() });

/** When the row was made and last changed. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });

/** Who made the row, when, and when it last changed. */
export const authored = () => ({ createdBy: createdBy(), ...timestamps() });
