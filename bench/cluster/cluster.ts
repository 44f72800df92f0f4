// Two CRDP nodes on one PostgreSQL primary with a streaming read replica, behind a reverse
// proxy: everything on 127.0.0.1 under one temporary directory (bench/cluster/README.md).
// `npm run cluster` starts it for a person; the test and the bench start it from code.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ReplicatedPostgres, removeReplicatedPostgres, startReplicatedPostgres } from './postgres.js';
import { type ReverseProxy, startProxy } from './proxy.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_MAIN = path.join(root, 'apps/server/dist/main.js');

export interface ClusterNode {
  name: string;
  url: string;
  port: number;
  child: ChildProcess | null;
  /** Everything the process wrote (warnings and errors at LOG_LEVEL=warn). */
  output: string;
  start(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface Cluster {
  postgres: ReplicatedPostgres;
  nodes: ClusterNode[];
  proxy: ReverseProxy;
  dir: string;
  /** The environment every node runs with (without PORT). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Ports: proxy `basePort`, nodes `basePort + 1…`, primary `basePort + 40`, replica `+ 41`. */
  basePort?: number;
  nodes?: number;
  /** More environment for every node (the defaults below, then this). */
  env?: Record<string, string>;
  log?: (line: string) => void;
  /** Keep the directory (data, PostgreSQL logs) after `stop`. */
  keep?: boolean;
}

export function startNode(name: string, port: number, env: Record<string, string>): ClusterNode {
  const node: ClusterNode = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    child: null,
    output: '',
    async start() {
      const child = spawn(process.execPath, [SERVER_MAIN], {
        env: { ...process.env, ...env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      node.child = child;
      const keep = (d: Buffer) => {
        node.output = (node.output + d).slice(-20_000);
      };
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      const deadline = Date.now() + 90_000;
      for (;;) {
        if (child.exitCode !== null)
          throw new Error(`node ${name} exited with ${child.exitCode}:\n${node.output}`);
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`node ${name} was not ready in 90 s:\n${node.output}`);
        }
        try {
          if ((await fetch(`${node.url}/readyz`)).ok) return;
        } catch {
          /* not listening yet */
        }
        await new Promise((r) => setTimeout(r, 150));
      }
    },
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        const child = node.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
  return node;
}

/**
 * Starts the primary and its replica, then node A (which migrates the new database and makes
 * the demo accounts), then the other nodes, then the proxy. Needs `npm run build` first.
 */
export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  if (!existsSync(SERVER_MAIN))
    throw new Error('Build first: npm run build (the nodes run apps/server/dist)');
  const base = opts.basePort ?? 8100;
  const log = opts.log ?? (() => {});
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crdp-cluster-'));
  const postgres = await startReplicatedPostgres({
    dir,
    primaryPort: base + 40,
    replicaPort: base + 41,
    database: 'crdp',
    log,
  });
  const nodes: ClusterNode[] = [];
  let proxy: ReverseProxy | undefined;
  const stop = async () => {
    await proxy?.close();
    await Promise.all(nodes.map((n) => n.stop('SIGTERM')));
    await postgres.stop();
    if (!opts.keep) await removeReplicatedPostgres(dir);
  };
  try {
    // One DATA_DIR for every node, as a shared volume (NFS) would be on several machines: uploads
    // and export files one node writes, another serves. One key for collection passwords.
    const dataDir = path.join(dir, 'data');
    await mkdir(dataDir, { recursive: true });
    const env: Record<string, string> = {
      HOST: '127.0.0.1',
      DATABASE_URL: postgres.primaryUrl,
      DATABASE_READ_URL: postgres.replicaUrl,
      DATA_DIR: dataDir,
      COLLECTION_SECRET_KEY: randomBytes(32).toString('base64'),
      DEMO_DATA: '1',
      DEMO_PATIENTS: '0',
      DEMO_PASSWORD: 'Cluster-Pass-2026',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
      HL7_LISTEN: '0',
      LOGIN_RATE_LIMIT: '100000',
      ...opts.env,
    };
    const count = opts.nodes ?? 2;
    for (let i = 0; i < count; i++) {
      const name = String.fromCharCode(65 + i);
      const node = startNode(name, base + 1 + i, env);
      nodes.push(node);
      const t = Date.now();
      // One after another: the first start migrates the new database (drizzle's migrator takes no lock).
      await node.start();
      log(`node ${name} on ${node.url} (ready in ${Date.now() - t} ms)`);
    }
    proxy = await startProxy({
      port: base,
      upstreams: nodes.map((n) => ({ name: n.name, url: n.url })),
      healthEveryMs: 500,
    });
    log(`proxy on ${proxy.url} -> ${nodes.map((n) => n.name).join(', ')}`);
    return { postgres, nodes, proxy, dir, env, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
