// A published CRF form (the API tests' liver form) in a fresh app of a bench database.
import { LIVER_FORM } from '../apps/server/src/crf/testform.js';
import type { Database } from '../apps/server/src/db/client.js';
import { apps, crfForms, crfFormVersions } from '../apps/server/src/db/schema/index.js';

export async function publishedBenchForm(db: Database['db'], shortName: string) {
  const [app] = await db.insert(apps).values({ appShortName: shortName, name: 'bench' }).returning();
  const appId = app!.appId;
  const [form] = await db
    .insert(crfForms)
    .values({ appId, name: 'bench', draft: LIVER_FORM, latestVersion: 1 })
    .returning();
  const [version] = await db
    .insert(crfFormVersions)
    .values({ appId, formId: form!.id, version: 1, definition: LIVER_FORM })
    .returning();
  const actor = { appId, userId: null, userName: 'bench', free: null };
  return { appId, form: form!, version: version!, actor };
}
