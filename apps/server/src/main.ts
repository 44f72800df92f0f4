import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { describeError } from './http/logging.js';

/** Starts the server: listens, prints one line with the URL, stops gracefully on SIGTERM/SIGINT. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const app = await buildApp({ config });
  const address = await app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  const url = `http://localhost:${port}`;
  const demo = app.demoAccounts;
  let line = `CRDP is running at ${url} (database: ${app.database.label})`;
  if (demo) {
    const list = demo.map((a) => `${a.username} / ${a.password} (${a.role})`).join(', ');
    line += ` — demo accounts, sign in at ${url}/user/login: ${list}; kept in ${config.dataDir}/demo-accounts.json`;
  }
  process.stdout.write(`${line}\n`);
  // Tells the operator's command-line tools (npm run backup) where this server is and how to prove themselves.
  const serverFile = path.join(config.dataDir, '.server.json');
  await mkdir(config.dataDir, { recursive: true });
  await writeFile(
    serverFile,
    JSON.stringify({ pid: process.pid, url: `http://127.0.0.1:${port}`, token: app.localToken }),
    {
      mode: 0o600,
    },
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 20 s, exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    try {
      await app.close();
      await rm(serverFile, { force: true });
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  // The error as the log shows it: a failed query of the first start (demo accounts) keeps its values out.
  process.stderr.write(`CRDP failed to start: ${describeError(err)}\n`);
  process.exit(1);
});
