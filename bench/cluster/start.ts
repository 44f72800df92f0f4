// `npm run cluster`: two CRDP nodes, a PostgreSQL primary and its streaming replica, and the
// reverse proxy, on 127.0.0.1 until Ctrl-C (bench/cluster/README.md). `npm run build` first.
// CLUSTER_PORT moves every port (proxy CLUSTER_PORT, nodes +1 and +2, PostgreSQL +40 and +41).
import { startCluster } from './cluster.js';

const cluster = await startCluster({
  basePort: Number(process.env.CLUSTER_PORT ?? 8100),
  keep: process.env.CLUSTER_KEEP === '1',
  log: (line) => console.log(line),
});
console.log(
  `CRDP cluster at ${cluster.proxy.url} (sign in as admin / ${cluster.env.DEMO_PASSWORD}); ` +
    `primary ${cluster.postgres.primaryUrl}, replica ${cluster.postgres.replicaUrl}; files in ${cluster.dir}. Ctrl-C stops it.`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('stopping the proxy, the nodes and PostgreSQL…');
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
