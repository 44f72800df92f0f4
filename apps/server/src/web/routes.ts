import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../http/errors.js';

/**
 * Serves the built web app on the same port. Any other GET that is not under /api gets
 * index.html (history-mode routing); unknown /api paths get a JSON 404.
 */
export async function webRoutes(app: FastifyInstance) {
  const dist = app.config.webDist;
  const hasWeb = existsSync(path.join(dist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // The build writes file.br and file.gz beside each asset; the one the browser accepts is sent.
      preCompressed: true,
      cacheControl: false,
      // Hashed assets never change under their name; everything else (index.html) is checked
      // on every use, so a browser never runs an old index.html asking for assets now gone.
      setHeaders: (res, file) => {
        // Shared caches must keep the Brotli, gzip and plain answers apart.
        res.setHeader('vary', 'accept-encoding');
        res.setHeader(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler(async (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    if (!isApi && (req.method === 'GET' || req.method === 'HEAD') && !path.extname(pathname)) {
      if (!hasWeb) {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The web app is not built. Run `npm run build`, then start the server again.');
      }
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    }
    throw new AppError(404, 'request.notFound', { path: pathname });
  });
}
