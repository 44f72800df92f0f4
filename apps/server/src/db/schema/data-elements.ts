import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { appId, appKeys, at, authored, createdAt, createdBy } from './columns.js';
import { users } from './identity.js';
import { parentKey } from './keys.js';
import { appScope } from './policies.js';

/** A data element of one app: a code and its current version (data-elements/README.md). */
export const dataElements = pgTable(
  'data_elements',
  {
    ...appKeys(),
    code: text('code').notNull(),
    version: integer('version').notNull().default(1),
    ...authored(),
  },
  (t) => [index('data_elements_app').on(t.appId), appScope()],
);

/** Every published version of an element's definition, kept to show what changed. */
export const dataElementVersions = pgTable(
  'data_element_versions',
  {
    elementId: parentKey('element_id', () => dataElements.id),
    appId: appId(),
    version: integer('version').notNull(),
    definition: jsonb('definition').notNull(),
    note: text('note').notNull().default(''),
    publishedBy: createdBy(),
    publishedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.elementId, t.version] }),
    index('data_element_versions_app').on(t.appId),
    appScope(),
  ],
);

/** A user's subscription to an element, with the version they last read. */
export const dataElementSubscriptions = pgTable(
  'data_element_subscriptions',
  {
    elementId: parentKey('element_id', () => dataElements.id),
    appId: appId(),
    userId: parentKey('user_id', () => users.userId),
    seenVersion: integer('seen_version').notNull(),
    seenAt: at('seen_at'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.elementId, t.userId] }),
    index('data_element_subscriptions_user').on(t.userId),
    index('data_element_subscriptions_app').on(t.appId),
    appScope(),
  ],
);
