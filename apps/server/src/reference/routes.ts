import {
  csvImportBody,
  dictionary,
  dictionaryCodes as dictionaryCodesAnswer,
  dictionaryCodesParams,
  dictionaryCreate,
  dictionaryEntry,
  dictionaryEntryCreate,
  dictionaryEntryPage,
  dictionaryEntryParams,
  dictionaryEntryPatch,
  dictionaryEntryQuery,
  dictionaryList,
  dictionaryParams,
  dictionaryPatch,
  dictionaryQuery,
  fileDownload,
  hospitalUnit,
  hospitalUnitCreate,
  hospitalUnitList,
  hospitalUnitParams,
  hospitalUnitPatch,
  hospitalUnitQuery,
  importReport,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appActor, signedIn } from '../http/context.js';
import { CSV_TYPE, ownedPath, sendAttachment } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  addDictionary,
  addEntry,
  deleteDictionary,
  deleteEntry,
  dictionariesOf,
  dictionaryCodes,
  dictionaryCodesOf,
  dictionaryOf,
  editDictionary,
  editEntry,
  ensureBasicDictionaries,
  entriesOf,
  exportEntries,
  importEntries,
  listDictionaries,
  listEntries,
} from './dictionaries.js';
import { addUnit, deleteUnit, editUnit, listUnits, unitsOf } from './units.js';

const V = '/api/v0.1';

/**
 * Reference data (reference/README.md): hospital structure under `hospital-units`
 * (DataLakeHospitalInfoMaintenance), basic dictionaries under `basic-dictionaries`
 * (DataLakeBasicDictionaryMaintenance) and the app's own under `dictionaries` (DataLakeDictionaries).
 */
export async function referenceRoutes(app: FastifyInstance) {
  const db = app.db;
  const api = restRoutes(app, { tags: ['reference'] });
  const H = (action: string) => ({ apiId: `DataLakeHospitalInfoMaintenance.${action}` });

  api.get(
    `${V}/hospital-units`,
    {
      access: H('query'),
      summary: 'The hospital structure: campuses, departments and wards, with visits per department',
      query: hospitalUnitQuery,
      answer: hospitalUnitList,
    },
    (req) => listUnits(db, signedIn(req.ctx).appId, req.query.keyword),
  );
  api.post(
    `${V}/hospital-units`,
    {
      access: H('add'),
      summary: 'Add a campus, department or ward',
      body: hospitalUnitCreate,
      answer: hospitalUnit,
    },
    (req) => addUnit(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${V}/hospital-units/:id`,
    {
      access: H('edit'),
      ownedIds: unitsOf,
      summary: 'Change a unit (code, name, parent, enabled); its kind stays',
      params: hospitalUnitParams,
      body: hospitalUnitPatch,
      answer: hospitalUnit,
    },
    (req) => editUnit(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${V}/hospital-units/:id`,
    {
      access: H('delete'),
      ownedIds: unitsOf,
      summary: 'Delete a unit that has no units under it',
      params: hospitalUnitParams,
      answer: z.literal(true),
    },
    (req) => deleteUnit(signedIn(req.ctx), req.params.id),
  );

  dictionaryFamily(app, {
    path: `${V}/basic-dictionaries`,
    router: 'DataLakeBasicDictionaryMaintenance',
    builtin: true,
  });
  dictionaryFamily(app, { path: `${V}/dictionaries`, router: 'DataLakeDictionaries', builtin: false });

  api.get(
    `${V}/dictionary-codes/:code`,
    {
      access: 'session',
      ownedIds: dictionaryCodesOf,
      summary: 'A dictionary’s enabled codes and names, for screens that show codes as names',
      params: dictionaryCodesParams,
      answer: dictionaryCodesAnswer,
    },
    (req) => dictionaryCodes(appActor(req.ctx), req.params.code),
  );
}

/**
 * The routes of one kind of dictionary: the basic ones (their entries are edited, the
 * dictionaries stay) or the app's own (made, renamed and deleted too).
 */
function dictionaryFamily(app: FastifyInstance, family: { path: string; router: string; builtin: boolean }) {
  const { path: P, router, builtin } = family;
  const db = app.db;
  const api = restRoutes(app, { tags: ['reference'] });
  const A = (action: string) => ({ apiId: `${router}.${action}` });
  const ownDictionary = ownedPath(dictionaryParams, dictionariesOf(builtin), (appId, p) =>
    dictionaryOf(db, appId, p.id, builtin),
  );
  const ownEntry = ownedPath(dictionaryEntryParams, entriesOf(builtin), (appId, p) =>
    dictionaryOf(db, appId, p.id, builtin),
  );

  api.get(
    P,
    {
      access: A('query'),
      summary: builtin
        ? 'The basic dictionaries (made the first time they are asked for)'
        : 'The app’s own dictionaries',
      query: dictionaryQuery,
      answer: dictionaryList,
    },
    async (req) => {
      const ctx = signedIn(req.ctx);
      if (builtin) await ensureBasicDictionaries(db, ctx.appId, ctx);
      return listDictionaries(db, ctx.appId, builtin, req.query.keyword);
    },
  );
  if (!builtin) {
    api.post(
      P,
      { access: A('add'), summary: 'Make a dictionary', body: dictionaryCreate, answer: dictionary },
      (req) => addDictionary(signedIn(req.ctx), req.body),
    );
    api.patch(
      `${P}/:id`,
      {
        access: A('edit'),
        ...ownDictionary,
        summary: 'Rename or describe a dictionary (its code stays)',
        body: dictionaryPatch,
        answer: dictionary,
      },
      (req) => editDictionary(signedIn(req.ctx), req.params.id, req.body),
    );
    api.delete(
      `${P}/:id`,
      {
        access: A('delete'),
        ...ownDictionary,
        summary: 'Delete a dictionary and its entries',
        answer: z.literal(true),
      },
      (req) => deleteDictionary(signedIn(req.ctx), req.params.id),
    );
  }
  api.get(
    `${P}/:id/entries`,
    {
      access: A('query'),
      ...ownDictionary,
      summary: 'A dictionary’s entries; keyword matches code, name, pinyin initials and synonyms',
      query: dictionaryEntryQuery,
      answer: dictionaryEntryPage,
    },
    (req) => listEntries(db, req.params.id, req.query),
  );
  api.post(
    `${P}/:id/entries`,
    {
      access: A('add'),
      ...ownDictionary,
      summary: 'Add an entry',
      body: dictionaryEntryCreate,
      answer: dictionaryEntry,
    },
    (req) => addEntry(signedIn(req.ctx), req.params.id, builtin, req.body),
  );
  api.patch(
    `${P}/:id/entries/:entryId`,
    {
      access: A('edit'),
      ...ownEntry,
      summary: 'Change an entry',
      body: dictionaryEntryPatch,
      answer: dictionaryEntry,
    },
    (req) => editEntry(signedIn(req.ctx), req.params.id, builtin, req.params.entryId, req.body),
  );
  api.delete(
    `${P}/:id/entries/:entryId`,
    { access: A('delete'), ...ownEntry, summary: 'Delete an entry', answer: z.literal(true) },
    (req) => deleteEntry(signedIn(req.ctx), req.params.id, builtin, req.params.entryId),
  );
  api.post(
    `${P}/:id/entries/import`,
    {
      access: A('import'),
      ...ownDictionary,
      summary:
        'Import entries from CSV (code, name[, pinyin, synonyms, standard_code, sort_order, enabled]); all rows or none',
      body: csvImportBody,
      bodyLimit: 8 * 1024 * 1024,
      answer: importReport,
    },
    (req) => importEntries(signedIn(req.ctx), app.parsing, req.params.id, builtin, req.body.text),
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    `${P}/:id/entries/export`,
    {
      config: { access: A('export'), ownedIds: dictionariesOf(builtin) },
      preValidation: ownDictionary.preValidation,
      schema: {
        tags: ['reference'],
        summary: 'A dictionary’s entries as CSV',
        params: dictionaryParams,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const file = await exportEntries(signedIn(req.ctx), req.params.id, builtin);
      return sendAttachment(reply, { type: CSV_TYPE, name: file.name, body: file.body });
    },
  );
}
