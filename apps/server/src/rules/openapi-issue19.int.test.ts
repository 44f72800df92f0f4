import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/helper.js';

/**
 * Issue 19's calls are documented in the OpenAPI document (/api/docs/json) with what they take and
 * what they answer: the eight rule calls, the two terminology calls (with the spec's spelling
 * `erminology/app` and the unversioned semantic path), the three FHIR terminology operations, and
 * the record-QC and data-element calls their screens use. The answers themselves are held to these
 * schemas by the routes (response schemas from @crdp/core) and checked in each area's API test.
 */
describe('issue 19 in OpenAPI', () => {
  let t: TestApp;
  let doc: {
    paths: Record<
      string,
      Record<string, { requestBody?: unknown; parameters?: unknown[]; responses: Record<string, unknown> }>
    >;
  };
  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  }, 120_000);
  afterAll(() => t?.close());

  const documented = (path: string, method: 'post' | 'get') => {
    const op = doc.paths[path]?.[method];
    expect(op, `${method.toUpperCase()} ${path}`).toBeDefined();
    const ok = op!.responses['200'] as { content?: Record<string, { schema?: unknown }> } | undefined;
    expect(ok?.content, `${path} answers a documented 200`).toBeDefined();
    expect(Object.values(ok!.content!)[0]?.schema, `${path} 200 schema`).toBeDefined();
    return op!;
  };

  it('documents the eight rule calls with their request bodies', () => {
    for (const call of [
      'rule_info_list',
      'get_attribute_list',
      'conditional_retrieval_attribute',
      'action_retrieval_attribute',
      'saverule',
      'executethe_test_sample',
      'save_sample_result',
      'delete_sample_result',
    ])
      expect(documented(`/api/v0.1/rule/${call}`, 'post').requestBody, call).toBeDefined();
  });

  it('documents the terminology calls on both spellings and the three FHIR operations', () => {
    for (const p of ['/api/v0.1/terminology/app', '/api/v0.1/erminology/app', '/api/terminology/semantic'])
      expect(documented(p, 'post').requestBody, p).toBeDefined();
    for (const p of ['CodeSystem/$lookup', 'ValueSet/$expand', 'ConceptMap/$translate'])
      expect(documented(`/api/v0.1/fhir/${p}`, 'get').parameters?.length, p).toBeGreaterThan(0);
    expect(documented('/api/v0.1/terminology/concept', 'get').parameters?.length).toBeGreaterThan(0);
  });

  it('documents the record-QC results calls and export', () => {
    for (const p of ['scores', 'doctors', 'documents', 'trend', 'faults'])
      expect(documented(`/api/v0.1/record-qc/task/${p}`, 'post').requestBody, p).toBeDefined();
    const exp = doc.paths['/api/v0.1/record-qc/task/export']?.get;
    expect(JSON.stringify(exp?.parameters)).toContain('xlsx');
  });
});
