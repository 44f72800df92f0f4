import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { audit } from '../audit/audit.js';
import { AppError, bilingual } from '../http/errors.js';
import { backupStream, writeBackup } from './backup.js';

/** Who may download a backup of the whole site: holders of the database export function. */
export const BACKUP_API_ID = 'SystemExportDatabase.export';

export async function backupRoutes(app: FastifyInstance) {
  app.get(
    '/api/v0.1/system/backup',
    {
      config: { access: { apiId: BACKUP_API_ID, localToken: true } },
      schema: {
        tags: ['system'],
        summary:
          'A consistent backup of the embedded database and uploads (tar), taken while the server runs',
      },
    },
    async (req, reply) => {
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
      await audit(app.db, req, {
        action: 'backup',
        entity: 'site',
        entityId: 'embedded',
        appId: req.auth?.appId ?? null,
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
