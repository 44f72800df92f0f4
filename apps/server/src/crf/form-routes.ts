import { restOk } from '@crdp/core';
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
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
import { formParams, ok, versionParams } from './schemas.js';

/** Forms, drafts and versions: `/api/v0.1/crf/forms...`. */
export async function crfFormRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['crf'];

  r.get(
    '/api/v0.1/crf/forms',
    {
      config: { access: { apiId: 'CrfManagementList.query' } },
      schema: {
        tags,
        summary: 'Forms of the current app',
        querystring: crfFormListQuery,
        response: { 200: restOk(crfFormPage) },
      },
    },
    async (req) => ok(await listForms(app.db, crfActor(req.ctx), req.query)),
  );

  r.post(
    '/api/v0.1/crf/forms',
    {
      config: { access: { apiId: 'CrfManagementList.add' } },
      schema: {
        tags,
        summary: 'Create a form (empty, or from form JSON)',
        body: crfFormCreateBody,
        response: { 200: restOk(crfForm) },
      },
    },
    async (req) => ok(await createForm(app.db, crfActor(req.ctx), req.body)),
  );

  r.get(
    '/api/v0.1/crf/forms/:formId',
    {
      config: {
        access: { apiId: 'CrfManagementList.get' },
        freeScope: 'crf',
        ownedIds: ownedFormIds,
      },
      schema: {
        tags,
        summary: 'A form with its draft, versions and draft problems',
        params: formParams,
        response: { 200: restOk(crfFormDetail) },
      },
    },
    async (req) => {
      const actor = crfActor(req.ctx);
      const form = await loadForm(app.db, actor, req.params.formId);
      const versions = await formVersions(app.db, form.id);
      // A free link fills the published form; it does not see the draft being designed.
      if (actor.free) return ok({ ...formView(form), draft: null, problems: [], versions });
      let problems: ReturnType<typeof analyzeForm> = [];
      try {
        problems = analyzeForm(checkDefinition(form.draft, 'draft'));
      } catch {
        /* a stored draft always parsed when it was saved */
      }
      return ok({ ...formView(form), versions, problems });
    },
  );

  r.patch(
    '/api/v0.1/crf/forms/:formId',
    {
      config: { access: { apiId: 'CrfManagementList.edit' }, ownedIds: ownedFormIds },
      schema: {
        tags,
        summary: 'Rename or re-categorise a form',
        params: formParams,
        body: crfFormPatchBody,
        response: { 200: restOk(crfForm) },
      },
    },
    async (req) => ok(await updateForm(app.db, crfActor(req.ctx), req.params.formId, req.body)),
  );

  r.post(
    '/api/v0.1/crf/forms/:formId/archive',
    {
      config: { access: { apiId: 'CrfManagementList.delete' }, ownedIds: ownedFormIds },
      schema: {
        tags,
        summary: 'Archive a form (or bring it back); records and versions are kept',
        params: formParams,
        body: crfArchiveBody,
        response: { 200: restOk(crfForm) },
      },
    },
    async (req) =>
      ok(
        await updateForm(app.db, crfActor(req.ctx), req.params.formId, {
          status: req.body.archived ? 'archived' : 'active',
        }),
      ),
  );

  r.put(
    '/api/v0.1/crf/forms/:formId/draft',
    {
      config: { access: { apiId: 'CrfHepatopathyPocEdit.edit' }, ownedIds: ownedFormIds },
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Save the draft; answers the problems analyzeForm finds in it',
        params: formParams,
        body: crfDraftBody,
        response: { 200: restOk(crfProblems) },
      },
    },
    async (req) => ok(await saveDraft(app.db, crfActor(req.ctx), req.params.formId, req.body.definition)),
  );

  r.post(
    '/api/v0.1/crf/forms/:formId/analyze',
    {
      config: { access: { apiId: 'CrfHepatopathyPocEdit.edit' }, ownedIds: ownedFormIds },
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Check form JSON without saving it: schema faults and analyzeForm problems',
        params: formParams,
        body: crfAnalyzeBody,
        response: { 200: restOk(crfProblems) },
      },
    },
    async (req) => {
      await loadForm(app.db, crfActor(req.ctx), req.params.formId);
      return ok({ problems: analyzeForm(checkDefinition(req.body.definition)) });
    },
  );

  r.post(
    '/api/v0.1/crf/forms/:formId/publish',
    {
      config: { access: { apiId: 'CrfHepatopathyPocEdit.edit' }, ownedIds: ownedFormIds },
      schema: {
        tags,
        summary: 'Publish the draft as the next immutable version',
        params: formParams,
        body: crfPublishBody,
        response: { 200: restOk(crfVersion) },
      },
    },
    async (req) => ok(await publishForm(app.db, crfActor(req.ctx), req.params.formId, req.body.note)),
  );

  r.post(
    '/api/v0.1/crf/forms/:formId/copy',
    {
      config: { access: { apiId: 'CrfManagementList.add' }, ownedIds: ownedFormIds },
      schema: {
        tags,
        summary: 'Copy a form (its draft) under a new name',
        params: formParams,
        body: crfCopyBody,
        response: { 200: restOk(crfForm) },
      },
    },
    async (req) => ok(await copyForm(app.db, crfActor(req.ctx), req.params.formId, req.body.name)),
  );

  r.get(
    '/api/v0.1/crf/forms/:formId/versions/:version',
    {
      config: {
        access: { apiId: 'CrfManagementList.get' },
        freeScope: 'crf',
        ownedIds: async (db, appId) => (await ownedFormIds(db, appId)).map((f) => ({ ...f, version: 1 })),
      },
      schema: {
        tags,
        summary: 'One published version of a form',
        params: versionParams,
        response: { 200: restOk(crfVersion) },
      },
    },
    async (req) => {
      const { version } = await loadVersion(app.db, crfActor(req.ctx), req.params.formId, req.params.version);
      return ok(version);
    },
  );
}
