// Time to a page's first data at the start of a page (issue 16), against the real built server
// on the embedded database. Reference, measured in the same run: the waterfall the shell used
// to make (GetCurrentUser, then the full GetProductMenusAndPermissions answer, then the page's
// data, here the user list). Ours: the three together, the menus revalidated by their ETag (304).
// Prints medians and bytes of both; ratio=<ours / reference> for the time to the page's data
// (lower is better) and for the time until the shell has everything. Over loopback the network
// wait is near zero, so this shows the server's share; each real round trip adds to the
// reference three times and to ours once.
import { api, signIn, startServer } from './_server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const PORT = Number(process.env.BENCH_PORT ?? 38_517);

const server = await startServer({}, PORT);
try {
  const key = await signIn(server.url, 'admin');
  const envelope = (path: string, method: string, params: unknown[]) =>
    timed(() => api(server.url, 'POST', path, { method, params }, key));
  const currentUser = () => envelope('/api/merchants/merchantslogin', 'GetCurrentUser', []);
  const menusEnvelope = () =>
    envelope('/api/merchants/MerchantsLogin', 'GetProductMenusAndPermissions', [22]);
  const pageData = () =>
    envelope('/api/merchants/merchantsuser', 'GetList', [{ PageIndex: 1, PageSize: 10 }]);
  const menusVersioned = (tag?: string) =>
    timed(async () => {
      const res = await fetch(`${server.url}/api/v0.1/product_menus?product_id=22`, {
        headers: { WeAppAuthorization: key, ...(tag ? { 'If-None-Match': tag } : {}) },
      });
      const text = await res.text();
      return { status: res.status, bytes: text.length, tag: res.headers.get('etag') ?? undefined };
    });

  // The kept answer of the first load.
  const first = await menusVersioned();
  if (first.value.status !== 200 || !first.value.tag) throw new Error(`menus: ${first.value.status}`);
  const tag = first.value.tag;
  const menusBytes = first.value.bytes;

  async function waterfall() {
    const start = performance.now();
    const u = await currentUser();
    const m = await menusEnvelope();
    const d = await pageData();
    check([u.value.status, m.value.status, d.value.status]);
    const end = performance.now() - start;
    return { firstData: end, shell: end };
  }

  async function together() {
    const start = performance.now();
    const [u, m, d] = await Promise.all([currentUser(), menusVersioned(tag), pageData()]);
    if (m.value.status !== 304) throw new Error(`expected 304, got ${m.value.status}`);
    check([u.value.status, d.value.status]);
    return { firstData: d.at - start, shell: Math.max(u.at, m.at, d.at) - start };
  }

  // Warm up both, then alternate so drift on a shared machine hits both alike.
  for (let i = 0; i < 5; i++) {
    await waterfall();
    await together();
  }
  const ref: Array<{ firstData: number; shell: number }> = [];
  const ours: Array<{ firstData: number; shell: number }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    ref.push(await waterfall());
    ours.push(await together());
  }
  const med = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)] ?? 0;
  };
  const refData = med(ref.map((r) => r.firstData));
  const oursData = med(ours.map((r) => r.firstData));
  const refShell = med(ref.map((r) => r.shell));
  const oursShell = med(ours.map((r) => r.shell));
  console.log(
    `waterfall (reference): first data ${refData.toFixed(1)} ms, shell ready ${refShell.toFixed(1)} ms, menus ${menusBytes} bytes`,
  );
  console.log(
    `together + 304 (ours):  first data ${oursData.toFixed(1)} ms, shell ready ${oursShell.toFixed(1)} ms, menus 0 bytes`,
  );
  console.log(`${ROUNDS} rounds each, medians`);
  console.log(`first data ratio=${(oursData / refData).toFixed(3)}`);
  console.log(`shell ready ratio=${(oursShell / refShell).toFixed(3)}`);
} finally {
  await server.stop('SIGTERM');
}

async function timed<T>(call: () => Promise<T>): Promise<{ value: T; at: number }> {
  const value = await call();
  return { value, at: performance.now() };
}

function check(statuses: number[]) {
  if (statuses.some((s) => s !== 200)) throw new Error(`unexpected status: ${statuses.join(', ')}`);
}
