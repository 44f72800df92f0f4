import { pickLocale } from '@crdp/core';
import Fastify from 'fastify';
import { errorHandler } from '../error-handler.js';

/**
 * A small real Fastify server with the app's one error handler and the same locale pick as the
 * app (the request's language, zh-CN by default), for the routes a test adds to throw from.
 */
export function errorHandlingApp() {
  const app = Fastify();
  app.addHook('onRequest', async (req) => {
    req.locale = pickLocale(req.headers['accept-language']);
  });
  app.setErrorHandler(errorHandler);
  return app;
}
