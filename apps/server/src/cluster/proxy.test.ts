import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ReverseProxy, startProxy } from '../../../../bench/cluster/proxy.js';

/**
 * The cluster's reverse proxy (bench/cluster/proxy.ts): round robin over the nodes that answer,
 * a request sent again to another node only when the first cannot have acted on it.
 */
interface Fake {
  url: string;
  seen: Array<{ method: string; body: string; forwardedFor: string | undefined }>;
  server: http.Server;
  /** What the node does with a request: answer it, or die holding it. */
  mode: 'answer' | 'die';
  close(): Promise<void>;
}

async function fakeNode(name: string, port = 0): Promise<Fake> {
  const fake: Fake = {
    url: '',
    seen: [],
    mode: 'answer',
    server: http.createServer(),
    close: () =>
      new Promise((resolve) => {
        fake.server.closeAllConnections();
        fake.server.close(() => resolve());
      }),
  };
  fake.server.on('request', async (req, res) => {
    if (req.url === '/readyz') {
      res.writeHead(200).end('{}');
      return;
    }
    let body = '';
    for await (const c of req) body += c;
    fake.seen.push({
      method: req.method ?? '',
      body,
      forwardedFor: req.headers['x-forwarded-for'] as string,
    });
    if (fake.mode === 'die') {
      req.socket.destroy(); // the process died after it took the request
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ node: name, body }));
  });
  await new Promise<void>((resolve) => fake.server.listen(port, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  return fake;
}

/** A port nothing listens on (a node that is down). */
async function deadPort() {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Nodes A and B and a proxy over them (checking their health every `healthEveryMs` when given). */
async function overTwoNodes(healthEveryMs?: number) {
  const a = await fakeNode('A');
  const b = await fakeNode('B');
  const proxy = await startProxy({
    port: 0,
    upstreams: [
      { name: 'A', url: a.url },
      { name: 'B', url: b.url },
    ],
    ...(healthEveryMs === undefined ? {} : { healthEveryMs }),
  });
  return { a, b, proxy };
}

const send = async (proxy: ReverseProxy, method: string, body?: string) => {
  const r = await fetch(`${proxy.url}/api/x`, {
    method,
    body,
    headers: { 'content-type': 'application/json' },
  });
  return { status: r.status, node: r.headers.get('x-crdp-node'), text: await r.text() };
};

describe('the cluster reverse proxy', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });

  it('takes turns between the nodes, passes the body and adds X-Forwarded-For', async () => {
    const { a, b, proxy } = await overTwoNodes();
    open.push(a, b, proxy);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await send(proxy, 'POST', `{"n":${i}}`));
    expect(answers.map((r) => r.node)).toEqual(['A', 'B', 'A', 'B']);
    expect(a.seen.map((s) => s.body)).toEqual(['{"n":0}', '{"n":2}']);
    expect(a.seen[0]!.forwardedFor).toBe('127.0.0.1');
    expect(proxy.upstreams.map((u) => u.served)).toEqual([2, 2]);
  });

  it('sends a POST the chosen node refused (it cannot have acted on it) to the other node', async () => {
    const b = await fakeNode('B');
    const down = await deadPort();
    const proxy = await startProxy({
      port: 0,
      upstreams: [
        { name: 'A', url: `http://127.0.0.1:${down}` },
        { name: 'B', url: b.url },
      ],
      healthEveryMs: 60_000,
    });
    open.push(b, proxy);
    // The health check already knows A is down; mark it up to make the proxy try it.
    proxy.upstreams[0]!.up = true;
    const r = await send(proxy, 'POST', '{"write":1}');
    expect(r.status).toBe(200);
    expect(r.node).toBe('B');
    expect(b.seen).toHaveLength(1);
    expect(proxy.retried).toBe(1);
    expect(proxy.upstreams[0]!.up).toBe(false);
  });

  it('answers 502 for a POST a node took and died holding, and never sends it to the other node', async () => {
    const { a, b, proxy } = await overTwoNodes(60_000);
    a.mode = 'die';
    open.push(a, b, proxy);
    const r = await send(proxy, 'POST', '{"write":2}');
    expect(r.status).toBe(502);
    expect(a.seen).toHaveLength(1);
    expect(b.seen).toHaveLength(0);
    expect(proxy.failed).toBe(1);
    // A GET changes nothing: after the same failure it is sent to the other node. Two GETs, so
    // that one of them is A's turn.
    proxy.upstreams[0]!.up = true;
    for (let i = 0; i < 2; i++) {
      const g = await send(proxy, 'GET');
      expect(g.status).toBe(200);
      expect(g.node).toBe('B');
    }
    expect(a.seen.map((s) => s.method)).toEqual(['POST', 'GET']);
    expect(proxy.retried).toBe(1);
  });

  it('leaves out a node whose /readyz stops answering, and takes it back when it answers again', async () => {
    const { a, b, proxy } = await overTwoNodes(50);
    open.push(b, proxy);
    const port = Number(new URL(a.url).port);
    await a.close();
    await expect.poll(() => proxy.upstreams[0]!.up, { timeout: 5000 }).toBe(false);
    for (let i = 0; i < 3; i++) expect((await send(proxy, 'GET')).node).toBe('B');
    const again = await fakeNode('A', port);
    open.push(again);
    await expect.poll(() => proxy.upstreams[0]!.up, { timeout: 5000 }).toBe(true);
    const nodes = new Set<string | null>();
    for (let i = 0; i < 4; i++) nodes.add((await send(proxy, 'GET')).node);
    expect([...nodes].sort()).toEqual(['A', 'B']);
  });
});
