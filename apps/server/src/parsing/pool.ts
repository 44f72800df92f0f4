import { fileURLToPath } from 'node:url';
import type { MessageKey } from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Piscina } from 'piscina';
import { AppError, invalidField } from '../http/errors.js';
import type { ParseOutcome, ParseResults, ParseTask } from './tasks.js';

/**
 * Parsing of uploaded files (ODM XML, REDCap and CSV text, FHIR bundles) runs in a small pool of
 * worker threads (piscina), so a 5 MB file never stops the event loop: every other request,
 * `/healthz` included, is answered while it is read. The worker is the built JavaScript next to
 * this module (`dist/parsing/worker.js`); under tsx or vitest this module is TypeScript and the
 * worker is `worker.ts`, loaded through tsx with the workspace packages' sources.
 */

export interface ParseLimits {
  /** Worker threads at most (each holds one file's parse at a time). */
  threads: number;
  /** Parses waiting for a thread at most; one more is answered 503 with retry-after. */
  queue: number;
  /** A parse still running after this long is stopped (its thread ends) and refused. */
  timeoutMs: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = { threads: 2, queue: 16, timeoutMs: 120_000 };
/** The retry-after of a full queue, in seconds. */
export const BUSY_RETRY_SECONDS = 5;

const fromTypeScript = import.meta.url.endsWith('.ts');
const workerFile = new URL(`./worker.${fromTypeScript ? 'ts' : 'js'}`, import.meta.url);
// Under tsx/vitest: tsx loads the worker's TypeScript, and the tests' tsconfig maps @crdp/* to the sources.
const tsOptions = fromTypeScript
  ? {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: fileURLToPath(new URL('../../../../tsconfig.tests.json', import.meta.url)),
      },
    }
  : {};

/** The server is busy reading other files: 503, with retry-after (set by the error handler). */
export const busy = () => new AppError(503, 'server.busy', { seconds: BUSY_RETRY_SECONDS });

const FULL = new Set(['Task queue is at limit', 'No task queue available and all Workers are busy']);

export class ParsePool {
  private pool: Piscina | null = null;
  private closed = false;
  /** Parses running or waiting. Counted here: piscina's own queue bound is loose while threads start. */
  private inFlight = 0;

  constructor(readonly limits: ParseLimits = DEFAULT_PARSE_LIMITS) {}

  /** Threads start on the first parse, not with the app, and end after a minute unused. */
  private get piscina(): Piscina {
    if (!this.pool)
      this.pool = new Piscina({
        filename: workerFile.href,
        minThreads: 0,
        maxThreads: this.limits.threads,
        maxQueue: this.limits.queue,
        idleTimeout: 60_000,
        ...tsOptions,
      });
    return this.pool;
  }

  /**
   * Runs one parse in a worker. A typed refusal from the worker is thrown here as the same
   * AppError (status, message key, values, field); a full queue is a 503; a parse past the time
   * limit is a 400 on `field`.
   */
  async run<K extends ParseTask['kind']>(
    task: Extract<ParseTask, { kind: K }>,
    field = 'body',
  ): Promise<ParseResults[K]> {
    if (this.closed || this.inFlight >= this.limits.threads + this.limits.queue) throw busy();
    const pool = this.piscina;
    const signal = AbortSignal.timeout(this.limits.timeoutMs);
    let outcome: ParseOutcome;
    this.inFlight++;
    try {
      outcome = (await pool.run(task, { signal })) as ParseOutcome;
    } catch (e) {
      if (signal.aborted) {
        const s = Math.round(this.limits.timeoutMs / 1000);
        throw invalidField(
          field,
          `文件处理超过 ${s} 秒，已停止`,
          `reading the file took more than ${s} s and was stopped`,
        );
      }
      // piscina's own refusals when every thread is busy and the queue is full.
      if (e instanceof Error && FULL.has(e.message)) throw busy();
      throw e;
    } finally {
      this.inFlight--;
    }
    if (outcome.ok) return outcome.value as ParseResults[K];
    const r = outcome.error;
    throw new AppError(r.status, r.key as MessageKey, r.values, r.field);
  }

  /** Parses finished since the pool started (what the tests check went through a worker). */
  get completed(): number {
    return this.pool?.completed ?? 0;
  }

  /** Ends the threads (a parse still running is refused); later parses answer 503. */
  async close() {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    if (pool) await pool.destroy();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The worker threads that parse uploaded files (`parsing/pool.ts`). */
    parsing: ParsePool;
  }
}

/** `app.parsing`, closed with the app (tests and SIGTERM do not wait on idle threads). */
export const parsingPlugin = fp(
  async (app: FastifyInstance) => {
    const pool = new ParsePool({
      ...DEFAULT_PARSE_LIMITS,
      threads: app.config.parseThreads,
      queue: app.config.parseQueue,
    });
    app.decorate('parsing', pool);
    app.addHook('onClose', async () => pool.close());
  },
  { name: 'crdp-parsing' },
);
