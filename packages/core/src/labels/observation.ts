import type { ObservationDomain, ObservationRunMode } from '../contracts/observation.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** Where an observation of the observation store comes from. */
export const OBSERVATION_DOMAIN_LABELS = {
  visit: both('就诊', 'Visit'),
  diagnosis: both('诊断', 'Diagnosis'),
  lab: both('检验', 'Lab test'),
  operation: both('手术', 'Operation'),
  drug: both('用药', 'Drug'),
  vital: both('生命体征', 'Vital sign'),
} as const satisfies Record<ObservationDomain, LabelText>;

export const OBSERVATION_RUN_MODE_LABELS = {
  full: both('全量', 'Full'),
  incremental: both('增量', 'Incremental'),
} as const satisfies Record<ObservationRunMode, LabelText>;
