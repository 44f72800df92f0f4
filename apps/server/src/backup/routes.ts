import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { databaseSummary, fileDownload, restOk } from '@crdp/core';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { audit } from '../audit/audit.js';
import { apps } from '../db/schema/index.js';
import { signedIn } from '../http/context.js';
import { AppError, bilingual } from '../http/errors.js';
import { appExport, leftOutTables, tableCounts } from './app-export.js';
import { backupStream, writeBackup } from './backup.js';

/**
 * The whole-site backup is the operator's (`npm run backup`, with the local token). The database
 * export function gives an app's administrator the export of that app's own rows instead.
 */
export const BACKUP_API_ID = 'SystemExportDatabase.export';

export async function backupRoutes(app: FastifyInstance) {
  const appOf = async (appId: number) => {
    const [row] = await app.db
      .select({ id: apps.appId, name: apps.name })
      .from(apps)
      .where(eq(apps.appId, appId));
    return row ?? { id: appId, name: '' };
  };

  app.get(
    '/api/v0.1/system/database',
    {
      config: { access: { apiId: 'SystemExportDatabase.query' } },
      schema: {
        tags: ['system'],
        summary: 'This app’s tables and row counts, and how the site is backed up',
        response: { 200: restOk(databaseSummary) },
      },
    },
    async (req) => {
      const { appId } = signedIn(req.ctx);
      const tables = await tableCounts(app.db, appId);
      return {
        code: 200 as const,
        message: 'ok',
        data: {
          engine: app.database.kind === 'pglite' ? ('embedded' as const) : ('postgresql' as const),
          app: await appOf(appId),
          tables,
          totalRows: tables.reduce((n, t) => n + t.rows, 0),
          leftOut: leftOutTables(),
        },
      };
    },
  );

  app.get(
    '/api/v0.1/system/database/export',
    {
      config: { access: { apiId: BACKUP_API_ID } },
      schema: {
        tags: ['system'],
        summary: 'This app’s own rows as a ZIP of CSV files (one per table) with a manifest, streamed',
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const s = signedIn(req.ctx);
      const target = await appOf(s.appId);
      await audit(app.db, s, { action: 'export', entity: 'app_database', entityId: target.id });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      reply.header('content-type', 'application/zip');
      reply.header('content-disposition', `attachment; filename="crdp-app-${target.id}-${stamp}.zip"`);
      // Streamed from the replica when there is one (DATABASE_READ_URL), off the primary.
      return reply.send(Readable.from(appExport(app.readDb, target, s.userName)));
    },
  );

  app.get(
    '/api/v0.1/system/backup',
    {
      config: { access: { apiId: BACKUP_API_ID, localToken: true } },
      schema: {
        tags: ['system'],
        summary:
          'A consistent backup of the embedded database and uploads (tar), taken while the server runs',
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      // Every app's data is in it: a session (an app's administrator) never gets it.
      if (req.ctx.auth) throw new AppError(403, 'backup.operatorOnly');
      if (!app.database.dumpDataDir) {
        throw new AppError(400, 'request.invalid', {
          detail: bilingual(
            '本服务器使用 PostgreSQL：请用 pg_dump 备份',
            'this server runs on PostgreSQL: use pg_dump',
          ),
        });
      }
      const dir = await mkdtemp(path.join(os.tmpdir(), 'crdp-dl-'));
      const file = path.join(dir, 'backup.tar');
      await writeBackup(app.database, app.config.dataDir, file);
      await audit(app.db, req.ctx, {
        action: 'backup',
        entity: 'site',
        entityId: 'embedded',
        appId: null,
        userName: 'operator (local command)',
      });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      reply.header('content-type', 'application/x-tar');
      reply.header('content-disposition', `attachment; filename="crdp-backup-${stamp}.tar"`);
      const stream = backupStream(file);
      stream.on('close', () => void rm(dir, { recursive: true, force: true }));
      return reply.send(stream);
    },
  );
}
