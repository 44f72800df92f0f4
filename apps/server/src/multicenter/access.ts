import { and, eq } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { mcTopicCenters, mcTopics } from '../db/schema/index.js';
import { AppError, notFound } from '../http/errors.js';
import { readConfigValue } from '../site/service.js';

/**
 * Who may act on a topic: the app must run in multi-center mode, and a topic is found only by a
 * center that accepted it (every other app gets 404, whatever it asks).
 */
export async function assertMultiCenter(db: Tx, appId: number) {
  const mode = await readConfigValue(db, appId, 'site', 'features', 'mode');
  if (mode !== 'multi-center') throw new AppError(403, 'multiCenter.off');
}

/** The topic and this app's role in it; a topic the app does not take part in is 404. */
export async function topicFor(db: Tx, appId: number, id: number) {
  const [row] = await db
    .select({ t: mcTopics, role: mcTopicCenters.role })
    .from(mcTopics)
    .innerJoin(
      mcTopicCenters,
      and(
        eq(mcTopicCenters.topicId, mcTopics.id),
        eq(mcTopicCenters.appId, appId),
        eq(mcTopicCenters.status, 'accepted'),
      ),
    )
    .where(eq(mcTopics.id, id));
  if (!row) throw notFound('topic');
  return { topic: row.t, role: row.role as 'lead' | 'member' };
}

/** The topic, when this app is its leading center: 404 if it does not take part, 403 if it only takes part. */
export async function ledTopic(db: Tx, appId: number, id: number) {
  const { topic, role } = await topicFor(db, appId, id);
  if (role !== 'lead') throw new AppError(403, 'multiCenter.notLead');
  return topic;
}
