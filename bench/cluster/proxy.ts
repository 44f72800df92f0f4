// A small reverse proxy in Node's own http module: round robin over the CRDP nodes that answer
// /readyz, the request sent to another node when the chosen one refuses the connection. What
// nginx's `upstream` with `proxy_next_upstream error` does, for the cluster script and its test
// (bench/cluster/README.md has the nginx configuration for a real deployment).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  name: string;
  host: string;
  port: number;
  /** Whether the last health check (or request) found the node answering. */
  up: boolean;
  /** Requests this node answered through the proxy. */
  served: number;
}

export interface ReverseProxy {
  url: string;
  port: number;
  upstreams: Upstream[];
  /** Requests answered 502 because no node could take them (none up, or one died mid-request). */
  failed: number;
  /** Requests sent to another node after the chosen one refused the connection. */
  retried: number;
  close(): Promise<void>;
}

/** Methods a proxy may send again after any failure: they change nothing. */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Errors that prove the node never received the request: any request may go elsewhere. */
const NOT_DELIVERED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Request bodies are held (to send them again to another node) up to this size. */
const MAX_BODY = 64 * 1024 * 1024;
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
];

/** The request's body, held so that it can be sent to another node; none read for a GET. */
function readBody(req: http.IncomingMessage): Promise<Buffer | 'too large' | 'gone'> {
  const empty = Buffer.alloc(0);
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    req.resume();
    return Promise.resolve(empty);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        req.removeAllListeners('data');
        req.resume();
        resolve('too large');
      } else chunks.push(c);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', () => resolve('gone'));
  });
}

export async function startProxy(opts: {
  port: number;
  host?: string;
  upstreams: Array<{ name: string; url: string }>;
  /** How often each node's /readyz is asked (ms). */
  healthEveryMs?: number;
}): Promise<ReverseProxy> {
  const upstreams: Upstream[] = opts.upstreams.map((u) => {
    const url = new URL(u.url);
    return { name: u.name, host: url.hostname, port: Number(url.port), up: true, served: 0 };
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const state = { failed: 0, retried: 0 };

  /** The nodes to try, in order: those up from the next in turn, then the others. */
  const order = () => {
    const start = next++ % upstreams.length;
    const turn = upstreams.map((_, i) => upstreams[(start + i) % upstreams.length]!);
    return [...turn.filter((u) => u.up), ...turn.filter((u) => !u.up)];
  };

  const forward = (
    u: Upstream,
    req: http.IncomingMessage,
    body: Buffer,
    res: http.ServerResponse,
  ): Promise<'done' | NodeJS.ErrnoException> =>
    new Promise((resolve) => {
      const headers: http.OutgoingHttpHeaders = { ...req.headers };
      for (const h of HOP_BY_HOP) delete headers[h];
      const client = req.socket.remoteAddress ?? '';
      const prior = req.headers['x-forwarded-for'];
      headers['x-forwarded-for'] = prior ? `${prior}, ${client}` : client;
      headers['x-forwarded-proto'] = 'http';
      headers['x-forwarded-host'] = req.headers.host ?? '';
      headers['content-length'] = String(body.length);
      const out = http.request(
        { host: u.host, port: u.port, method: req.method, path: req.url, headers, agent },
        (up) => {
          u.served++;
          const h = { ...up.headers };
          for (const name of HOP_BY_HOP) delete h[name];
          res.writeHead(up.statusCode ?? 502, { ...h, 'x-crdp-node': u.name });
          up.pipe(res);
          // A node that dies while streaming an answer: the client sees a cut connection, never a whole answer.
          up.on('aborted', () => res.destroy());
          up.on('error', () => res.destroy());
          up.on('end', () => resolve('done'));
        },
      );
      out.on('error', (e: NodeJS.ErrnoException) => {
        if (res.headersSent) {
          res.destroy();
          resolve('done');
        } else resolve(e);
      });
      out.end(body);
    });

  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    if (body === 'too large') {
      res.writeHead(413).end();
      return;
    }
    if (body === 'gone') return; // the client went away
    for (const u of order()) {
      const outcome = await forward(u, req, body, res);
      if (outcome === 'done') return;
      u.up = false;
      // Sent again only when the node cannot have acted on it: a refused connection, or a
      // request that changes nothing. A POST cut after it was sent may have been done: 502.
      if (!(NOT_DELIVERED.has(outcome.code ?? '') || SAFE.has(req.method ?? ''))) break;
      state.retried++;
    }
    state.failed++;
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 502, message: 'no CRDP node could answer' }));
  });
  server.keepAliveTimeout = 5000;

  const check = () =>
    Promise.all(
      upstreams.map(
        (u) =>
          new Promise<void>((resolve) => {
            const r = http.get({ host: u.host, port: u.port, path: '/readyz', timeout: 2000 }, (res) => {
              u.up = res.statusCode === 200;
              res.resume();
              resolve();
            });
            r.on('timeout', () => r.destroy(new Error('timeout')));
            r.on('error', () => {
              u.up = false;
              resolve();
            });
          }),
      ),
    );
  const timer = setInterval(() => void check(), opts.healthEveryMs ?? 1000);
  timer.unref();
  await check();

  await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    upstreams,
    get failed() {
      return state.failed;
    },
    get retried() {
      return state.retried;
    },
    close: async () => {
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
