import { JOB_KIND_LABELS } from '@crdp/core';
import { z } from 'zod';
import type { Tx } from '../db/client.js';
import { FILL_KIND } from '../disease-library/fill.js';
import { libraryOf } from '../disease-library/libraries.js';
import { PUSH_KIND } from '../disease-library/push.js';
import { AppError, invalidField } from '../http/errors.js';
import type { SchedulableKind, SchedulableRegistry } from './registry.js';

const libraryParams = z.object({
  libraryId: z.number().int().positive().max(2_147_483_647),
});

/** The library must be this app's: another app's id is refused exactly like a missing one. */
async function ownLibrary(db: Tx, appId: number, params: Record<string, unknown>) {
  try {
    return await libraryOf(db, appId, Number(params.libraryId));
  } catch (e) {
    if (e instanceof AppError && e.status === 404)
      throw invalidField(
        'body.params.libraryId',
        '本应用没有这个 ID 的专病库',
        'no disease library of this app has this id',
      );
    throw e;
  }
}

const describeLibrary = async (db: Tx, appId: number, params: Record<string, unknown>) => {
  try {
    return (await libraryOf(db, appId, Number(params.libraryId))).name;
  } catch {
    return null;
  }
};

/**
 * The disease library's push and fill, queued exactly as their own routes queue them
 * (same job kind, `{ libraryId }` params, the same runner handlers); a scheduled run is marked
 * `scheduled: true`, as the library's own periodic push marks its jobs, so the library's push
 * list shows it as scheduled.
 */
export const DISEASE_LIBRARY_KINDS: SchedulableKind[] = [
  {
    kind: PUSH_KIND,
    label: JOB_KIND_LABELS['diseaseLibrary.push'],
    params: libraryParams,
    check: async (db, appId, params) => {
      const lib = await ownLibrary(db, appId, params);
      // Like the library's own push button: a disabled library takes no push.
      if (lib.status !== 'enabled')
        throw invalidField(
          'body.params.libraryId',
          '该专病库已停用，请先启用',
          'the library is disabled; enable it first',
        );
    },
    describe: describeLibrary,
    jobParams: () => ({ scheduled: true }),
  },
  {
    kind: FILL_KIND,
    label: JOB_KIND_LABELS['diseaseLibrary.fill'],
    params: libraryParams,
    check: async (db, appId, params) => {
      await ownLibrary(db, appId, params);
    },
    describe: describeLibrary,
    jobParams: () => ({ scheduled: true }),
  },
];

export function registerBuiltInKinds(registry: SchedulableRegistry) {
  for (const k of DISEASE_LIBRARY_KINDS) registry.register(k);
}
