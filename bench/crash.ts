// Crash safety: the server is killed with SIGKILL in the middle of a stream of acknowledged
// writes, restarted on the same data, and every acknowledged write must be there. Embedded
// PGlite and PostgreSQL. Prints lost writes and ratio=<recovered/acknowledged> (1.000 is the goal).
import { api, missingIds, onEachDatabase, type Query, signIn, startServer } from './_server.js';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const WRITERS = 8;

async function round(env: Record<string, string>, port: number) {
  const server = await startServer(env, port);
  const key = await signIn(server.url, 'admin');
  const acknowledged: number[] = [];
  let stop = false;
  const writers = Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      try {
        const r = await api(
          server.url,
          'POST',
          '/api/v0.1/free_access',
          { scopeKind: 'term', label: `crash ${w}-${i}` },
          key,
        );
        if (r.status === 200) acknowledged.push((r.json!.data as { id: number }).id);
      } catch {
        return; // the connection died with the server
      }
    }
  });
  await new Promise((r) => setTimeout(r, 1500 + Math.random() * 1500));
  await server.stop('SIGKILL');
  stop = true;
  await Promise.all(writers);
  // Restart on the same data: recovery must bring back every acknowledged write.
  const again = await startServer(env, port);
  await again.stop('SIGTERM');
  return acknowledged;
}

async function measure(label: string, env: Record<string, string>, query: Query, port: number) {
  let acked = 0;
  let lost = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const ids = await round(env, port);
    const missing = await missingIds(query, ids);
    acked += ids.length;
    lost += missing.length;
    console.log(
      `${label} round ${i + 1}: killed after ${ids.length} acknowledged writes, ${missing.length} lost`,
    );
  }
  console.log(
    `${label}: ${acked} acknowledged, ${lost} lost, crash ratio=${((acked - lost) / Math.max(1, acked)).toFixed(3)}`,
  );
}

await onEachDatabase('crash', 18_201, measure);
