// A bare HL7 v2 listener process for bench/hl7.ts: opens the database (DATABASE_URL, or the
// embedded one in DATA_DIR), starts the listener of HL7 source SOURCE_ID on a free port of
// 127.0.0.1 and prints `PORT <n>`. The real listener code (apps/server/src/collection/hl7), no
// processing job: what is measured and killed is receive → store → ACK.
import { Hl7Listeners } from '../apps/server/src/collection/hl7/listener.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { collectionSources } from '../apps/server/src/db/schema/index.js';

const database = await openDatabase({
  url: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR ?? 'memory',
});
const sourceId = Number(process.env.SOURCE_ID);
const s = (await database.db.select().from(collectionSources)).find((x) => x.id === sourceId);
if (!s) throw new Error(`no source ${sourceId}`);
const quiet = () => {};
const listeners = new Hl7Listeners(database.db, {
  host: '127.0.0.1',
  log: { info: quiet, warn: quiet, error: (o, m) => console.error(m, o) },
});
const port = await listeners.listen({ id: s.id, appId: s.appId }, 0);
console.log(`PORT ${port}`);
const stop = async () => {
  await listeners.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
