import {
  dataFactoryDatasetParams,
  dataFactoryDetail,
  dataFactoryEntry,
  dataFactoryEntryCreate,
  dataFactoryEntryParams,
  dataFactoryEntryPatch,
  dataFactoryList,
  dataFactoryListQuery,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { ownedPath } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  addEntry,
  datasetDetail,
  datasetsOf,
  deleteEntry,
  editEntry,
  entriesOf,
  entryOf,
  listDatasets,
} from './catalogue.js';

const P = '/api/v0.1/data-factory';

/** The data factory directory (数据工厂目录, DataLakeDirectoryDataFactory): derived datasets and their curation. */
export async function dataFactoryRoutes(app: FastifyInstance) {
  const db = app.db;
  const api = restRoutes(app, { tags: ['data-factory'] });
  const A = (action: string) => ({ apiId: `DataLakeDirectoryDataFactory.${action}` });
  const ownEntry = ownedPath(dataFactoryEntryParams, entriesOf, (appId, p) => entryOf(db, appId, p.id));
  const ownDataset = ownedPath(dataFactoryDatasetParams, datasetsOf, (appId, p) =>
    datasetDetail(db, appId, p.kind, p.id),
  );

  api.get(
    `${P}/datasets`,
    {
      access: A('query'),
      summary: 'The app’s derived datasets with their facts and curation',
      query: dataFactoryListQuery,
      answer: dataFactoryList,
    },
    (req) => listDatasets(db, signedIn(req.ctx).appId, req.query),
  );
  api.get(
    `${P}/datasets/:kind/:id`,
    {
      access: A('get'),
      ...ownDataset,
      summary: 'One derived dataset with its fields and their fill rates',
      answer: dataFactoryDetail,
    },
    (req) => datasetDetail(db, signedIn(req.ctx).appId, req.params.kind, req.params.id),
  );
  api.post(
    `${P}/entries`,
    {
      access: A('add'),
      summary: 'Curate a dataset (description, tags, steward)',
      body: dataFactoryEntryCreate,
      answer: dataFactoryEntry,
    },
    (req) => addEntry(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${P}/entries/:id`,
    {
      access: A('edit'),
      ...ownEntry,
      summary: 'Change a dataset’s curation',
      body: dataFactoryEntryPatch,
      answer: dataFactoryEntry,
    },
    (req) => editEntry(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/entries/:id`,
    { access: A('delete'), ...ownEntry, summary: 'Remove a dataset’s curation', answer: z.literal(true) },
    (req) => deleteEntry(signedIn(req.ctx), req.params.id),
  );
}
