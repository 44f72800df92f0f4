import {
  analyzeForm,
  crfAnalyzeBody,
  crfArchiveBody,
  crfCopyBody,
  crfDraftBody,
  crfForm,
  crfFormCreateBody,
  crfFormDetail,
  crfFormListQuery,
  crfFormPage,
  crfFormPatchBody,
  crfProblems,
  crfPublishBody,
  crfVersion,
} from '@crdp/crf';
import type { FastifyInstance } from 'fastify';
import { restRoutes } from '../http/route.js';
import { crfActor } from './actor.js';
import {
  checkDefinition,
  copyForm,
  createForm,
  formVersions,
  formView,
  listForms,
  loadForm,
  loadVersion,
  ownedFormIds,
  publishForm,
  saveDraft,
  updateForm,
} from './forms.js';
import { formParams, versionParams } from './schemas.js';

/** Forms, drafts and versions: `/api/v0.1/crf/forms...`. */
export async function crfFormRoutes(app: FastifyInstance) {
  const tags = ['crf'];
  const api = restRoutes(app, { tags });

  api.get(
    '/api/v0.1/crf/forms',
    {
      access: { apiId: 'CrfManagementList.query' },
      summary: 'Forms of the current app',
      query: crfFormListQuery,
      answer: crfFormPage,
    },
    (req) => listForms(app.db, crfActor(req.ctx), req.query),
  );

  api.post(
    '/api/v0.1/crf/forms',
    {
      access: { apiId: 'CrfManagementList.add' },
      summary: 'Create a form (empty, or from form JSON)',
      body: crfFormCreateBody,
      answer: crfForm,
    },
    (req) => createForm(app.db, crfActor(req.ctx), req.body),
  );

  api.get(
    '/api/v0.1/crf/forms/:formId',
    {
      access: { apiId: 'CrfManagementList.get' },
      ownedIds: ownedFormIds,
      freeScope: 'crf',
      summary: 'A form with its draft, versions and draft problems',
      params: formParams,
      answer: crfFormDetail,
    },
    async (req) => {
      const actor = crfActor(req.ctx);
      const form = await loadForm(app.db, actor, req.params.formId);
      const versions = await formVersions(app.db, form.id);
      // A free link fills the published form; it does not see the draft being designed.
      if (actor.free) return { ...formView(form), draft: null, problems: [], versions };
      let problems: ReturnType<typeof analyzeForm> = [];
      try {
        problems = analyzeForm(checkDefinition(form.draft, 'draft'));
      } catch {
        /* a stored draft always parsed when it was saved */
      }
      return { ...formView(form), versions, problems };
    },
  );

  api.patch(
    '/api/v0.1/crf/forms/:formId',
    {
      access: { apiId: 'CrfManagementList.edit' },
      ownedIds: ownedFormIds,
      summary: 'Rename or re-categorise a form',
      params: formParams,
      body: crfFormPatchBody,
      answer: crfForm,
    },
    (req) => updateForm(app.db, crfActor(req.ctx), req.params.formId, req.body),
  );

  api.post(
    '/api/v0.1/crf/forms/:formId/archive',
    {
      access: { apiId: 'CrfManagementList.delete' },
      ownedIds: ownedFormIds,
      summary: 'Archive a form (or bring it back); records and versions are kept',
      params: formParams,
      body: crfArchiveBody,
      answer: crfForm,
    },
    (req) =>
      updateForm(app.db, crfActor(req.ctx), req.params.formId, {
        status: req.body.archived ? 'archived' : 'active',
      }),
  );

  api.put(
    '/api/v0.1/crf/forms/:formId/draft',
    {
      access: { apiId: 'CrfHepatopathyPocEdit.edit' },
      ownedIds: ownedFormIds,
      summary: 'Save the draft; answers the problems analyzeForm finds in it',
      params: formParams,
      body: crfDraftBody,
      bodyLimit: 8 * 1024 * 1024,
      answer: crfProblems,
    },
    (req) => saveDraft(app.db, crfActor(req.ctx), req.params.formId, req.body.definition),
  );

  api.post(
    '/api/v0.1/crf/forms/:formId/analyze',
    {
      access: { apiId: 'CrfHepatopathyPocEdit.edit' },
      ownedIds: ownedFormIds,
      summary: 'Check form JSON without saving it: schema faults and analyzeForm problems',
      params: formParams,
      body: crfAnalyzeBody,
      bodyLimit: 8 * 1024 * 1024,
      answer: crfProblems,
    },
    async (req) => {
      await loadForm(app.db, crfActor(req.ctx), req.params.formId);
      return { problems: analyzeForm(checkDefinition(req.body.definition)) };
    },
  );

  api.post(
    '/api/v0.1/crf/forms/:formId/publish',
    {
      access: { apiId: 'CrfHepatopathyPocEdit.edit' },
      ownedIds: ownedFormIds,
      summary: 'Publish the draft as the next immutable version',
      params: formParams,
      body: crfPublishBody,
      answer: crfVersion,
    },
    (req) => publishForm(app.db, crfActor(req.ctx), req.params.formId, req.body.note),
  );

  api.post(
    '/api/v0.1/crf/forms/:formId/copy',
    {
      access: { apiId: 'CrfManagementList.add' },
      ownedIds: ownedFormIds,
      summary: 'Copy a form (its draft) under a new name',
      params: formParams,
      body: crfCopyBody,
      answer: crfForm,
    },
    (req) => copyForm(app.db, crfActor(req.ctx), req.params.formId, req.body.name),
  );

  api.get(
    '/api/v0.1/crf/forms/:formId/versions/:version',
    {
      access: { apiId: 'CrfManagementList.get' },
      ownedIds: async (db, appId) => (await ownedFormIds(db, appId)).map((f) => ({ ...f, version: 1 })),
      freeScope: 'crf',
      summary: 'One published version of a form',
      params: versionParams,
      answer: crfVersion,
    },
    async (req) => {
      const { version } = await loadVersion(app.db, crfActor(req.ctx), req.params.formId, req.params.version);
      return version;
    },
  );
}
