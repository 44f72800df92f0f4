import { integer, timestamp } from 'drizzle-orm/pg-core';
import { apps } from './identity.js';

/** A timestamp with time zone: every instant CRDP stores. */
export const at = (name: string) => timestamp(name, { withTimezone: true });

/** The tenant column every row of app data carries; rows go with their app. */
export const appId = () =>
  integer('app_id')
    .notNull()
    .references(() => apps.appId, { onDelete: 'cascade' });
