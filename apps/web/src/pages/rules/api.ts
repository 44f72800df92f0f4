import type {
  RuleActionTargetList,
  RuleAttributeList,
  RuleDetail,
  RuleList,
  RuleListBody,
  RuleRegression,
  RuleResultPage,
  RuleRun,
  RuleRunBody,
  RuleSample,
  RuleSampleSaveBody,
  RuleSaveBody,
  RuleTestBody,
  RuleTestResult,
  RuleWhenInput,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the clinical-rule screens (apps/server/src/rules/routes.ts, all POST under rule/). */
const call = <T>(path: string, data: unknown, silent = false) =>
  rest<T>({ url: `rule/${path}`, method: 'POST', data, silent });

export const rulesApi = {
  list: (b: RuleListBody) => call<RuleList>('rule_info_list', b),
  detail: (id: number) => call<RuleDetail>('rule_info', { rule_id: id }),
  attributes: () => call<RuleAttributeList>('get_attribute_list', {}),
  searchAttributes: (keyword: string) =>
    call<RuleAttributeList>('conditional_retrieval_attribute', { keyword, limit: 100 }),
  actionTargets: () => call<RuleActionTargetList>('action_retrieval_attribute', { keyword: '', limit: 200 }),
  save: (b: RuleSaveBody) => call<RuleDetail>('saverule', b, true),
  remove: (id: number) => call<true>('delete_rule', { rule_id: id }),
  test: (b: RuleTestBody) => call<RuleTestResult>('executethe_test_sample', b, true),
  saveSample: (b: RuleSampleSaveBody) => call<RuleSample>('save_sample_result', b, true),
  deleteSample: (ruleId: number, sampleId: number) =>
    call<true>('delete_sample_result', { rule_id: ruleId, sample_id: sampleId }),
  regression: (ruleId: number, when?: RuleWhenInput) =>
    call<RuleRegression>('regression', { rule_id: ruleId, when }, true),
  run: (b: RuleRunBody) => call<{ runId: number; jobId: number }>('run', b),
  runs: (ruleId?: number) => call<{ items: RuleRun[] }>('run_list', { rule_id: ruleId }),
  results: (runId: number, page: number, size: number) =>
    call<RuleResultPage>('run_results', { run_id: runId, page, size }),
};
