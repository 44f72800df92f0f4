import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { apps, users } from './identity.js';
import { parentKey } from './keys.js';
import { appScope } from './policies.js';

/**
 * Sign-in hand-off codes (spec 000 §2, `?SessionKey=`): a signed-in session asks for one for
 * itself; it opens a new session of the same user and app once, within a minute. Only a SHA-256
 * hash of the code is stored; `used_at` is set by the one exchange that wins.
 */
export const sessionHandoffs = pgTable(
  'session_handoffs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    codeHash: text('code_hash').notNull().unique(),
    userId: parentKey('user_id', () => users.userId),
    appId: parentKey('app_id', () => apps.appId),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('session_handoffs_expires').on(t.expiresAt), appScope()],
);
