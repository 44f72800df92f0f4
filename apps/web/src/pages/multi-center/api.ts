import type { DetectionIssue } from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the multi-center pages (apps/server/src/multicenter/routes.ts). */
export interface Topic {
  id: number;
  name: string;
  typeCode: string;
  status: string;
  role: 'lead' | 'member';
  leadCenter: string;
  centers: number;
  createdAt: string;
}
export interface TopicVariable {
  key: string;
  label: string;
  required?: boolean;
  min?: number;
  max?: number;
}
export interface Center {
  appId: number;
  name: string;
  shortName: string;
}
export interface TopicDetail {
  id: number;
  name: string;
  typeCode: string;
  status: string;
  protocol: Record<'background' | 'objectives' | 'design' | 'endpoints', string>;
  variables: TopicVariable[];
  role: 'lead' | 'member';
  centers: Array<{ appId: number; name: string; role: 'lead' | 'member' }>;
  moves: string[];
  canEnter: boolean;
  history: Array<{ from: string; to: string; userName: string; at: string }>;
}
export interface OwnCase {
  id: number;
  patientId: number;
  mrn: string;
  values: Record<string, number | string | null>;
  enteredAt: string;
}
export interface PatientOption {
  id: number;
  mrn: string;
  name: string;
  gender: number | null;
}
export type Issue = DetectionIssue;
export interface CenterCheck {
  appId: number;
  name: string;
  cases: number;
  completeness: number | null;
  counts: { missing: number; outOfRange: number; duplicate: number };
  issues: Issue[];
}
export interface Summary {
  cases: number;
  variables: Array<{ key: string; label: string; n: number; missing: number; mean?: number | null }>;
}
export interface Pooled {
  role: 'lead' | 'member';
  total: Summary;
  centers: Array<Summary & { appId: number; name: string }>;
}
export const mcApi = {
  list: () => rest<Topic[]>({ url: 'mc/topics' }),
  centers: () => rest<Center[]>({ url: 'mc/centers', silent: true }),
  create: (data: unknown) => rest<{ id: number }>({ url: 'mc/topics', method: 'POST', data, silent: true }),
  get: (id: number) => rest<TopicDetail>({ url: `mc/topics/${id}` }),
  saveProtocol: (id: number, data: unknown) =>
    rest<unknown>({ url: `mc/topics/${id}/protocol`, method: 'PUT', data }),
  move: (id: number, to: string) =>
    rest<{ status: string }>({ url: `mc/topics/${id}/status`, method: 'POST', data: { to }, silent: true }),
  patients: (id: number, keyword?: string) =>
    rest<PatientOption[]>({ url: `mc/topics/${id}/patients`, params: keyword ? { keyword } : {} }),
  cases: (id: number) => rest<OwnCase[]>({ url: `mc/topics/${id}/cases` }),
  enter: (id: number, data: { patientId: number; values: Record<string, number | string | null> }) =>
    rest<{ id: number }>({ url: `mc/topics/${id}/cases`, method: 'POST', data, silent: true }),
  pooled: (id: number) => rest<Pooled>({ url: `mc/topics/${id}/pooled` }),
  detection: (id: number) => rest<CenterCheck[]>({ url: `mc/topics/${id}/detection` }),
};
