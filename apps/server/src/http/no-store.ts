import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This /api/ route answers public data that a browser or proxy may keep (its handler sets its
     * own Cache-Control); without it every /api/ answer is `no-store`.
     */
    publicCache?: true;
  }
}

/** The request is for the API (`/api` or under `/api/`), by its path only. */
export function isApiPath(url: string) {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return path === '/api' || path.startsWith('/api/');
}

const mayCache = (req: FastifyRequest) => req.routeOptions.config?.publicCache === true;

/**
 * Answers of the API may carry patient data, so no browser or proxy keeps them:
 * `Cache-Control: no-store` on every /api/ answer, errors, 404s and file downloads included,
 * unless the route declares `config.publicCache`. The web app's files keep their own rules.
 */
export const noStorePlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (req, reply, payload) => {
    if (isApiPath(req.url) && !mayCache(req)) reply.header('cache-control', 'no-store');
    return payload;
  });
});
