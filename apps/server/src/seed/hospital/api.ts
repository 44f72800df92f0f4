import type { FastifyInstance } from 'fastify';

/**
 * The demo administrator at work: every object of the demo hospital is made through the same
 * HTTP routes a person's browser calls (access checks, validation, audit, jobs), in-process with
 * `inject` on a session of the administrator. What the demo shows is what a user would have made.
 */
export class DemoApi {
  constructor(
    private readonly app: FastifyInstance,
    private readonly key: string,
  ) {}

  async call<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown): Promise<T> {
    const res = await this.app.inject({
      method,
      url,
      headers: { WeAppAuthorization: this.key, 'user-agent': 'CRDP demo hospital' },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const json = res.json() as { code?: number; data?: T; message?: string; result?: T };
    if (res.statusCode !== 200)
      throw new Error(`demo hospital: ${method} ${url} answered ${res.statusCode} (${json.message ?? ''})`);
    return (json.data ?? json.result) as T;
  }

  get<T>(url: string) {
    return this.call<T>('GET', url);
  }

  post<T>(url: string, body: unknown = {}) {
    return this.call<T>('POST', url, body);
  }

  /** The object of a list named `name` (lists answer an array, or a page with `items` or `list`), if any. */
  async find<T extends { name: string }>(url: string, name: string): Promise<T | undefined> {
    const sep = url.includes('?') ? '&' : '?';
    const data = await this.get<T[] | { items: T[] } | { list: T[] }>(
      `${url}${sep}keyword=${encodeURIComponent(name)}&name=${encodeURIComponent(name)}`,
    );
    const items = Array.isArray(data) ? data : 'items' in data ? data.items : data.list;
    return items.find((x) => x.name === name);
  }
}
