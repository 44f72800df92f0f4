import type { DetectionIssue, PooledCount, PooledSummary } from '@crdp/core';
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
  /** Pooled cells of other centers below this count are hidden ("< n"). */
  minCellCount: number;
  centers: Array<{ appId: number; name: string; role: 'lead' | 'member'; status: CenterStatus }>;
  moves: string[];
  canEnter: boolean;
  history: Array<{ from: string; to: string; userName: string; at: string }>;
}
export type CenterStatus = 'pending' | 'accepted' | 'declined' | 'withdrawn' | 'left';
/** The manage-a-topic function: invitations, protocol, status, the minimum cell count. */
export const MANAGE_TOPIC = 'MultiCenterTopicDescription.edit';
export interface Invitation {
  topicId: number;
  topic: string;
  leadCenter: string;
  invitedAt: string;
  shares: 'aggregates';
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
  own: boolean;
  cases: PooledCount;
  completeness: number | null;
  counts: { missing: PooledCount; outOfRange: PooledCount; duplicate: PooledCount };
  issues: Issue[];
}
/** The pooled summary of one center or of all (the contract lives in @crdp/core). */
export type Summary = PooledSummary;
export interface Pooled {
  role: 'lead' | 'member';
  minCellCount: number;
  total: Summary;
  centers: Array<Summary & { appId: number; name: string; own: boolean }>;
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
  invite: (id: number, data: { appId: number } | { appCode: string }) =>
    rest<{ appId: number; name: string }>({
      url: `mc/topics/${id}/centers`,
      method: 'POST',
      data,
      silent: true,
    }),
  withdraw: (id: number, appId: number) =>
    rest<unknown>({ url: `mc/topics/${id}/withdraw`, method: 'POST', data: { appId }, silent: true }),
  leave: (id: number) =>
    rest<unknown>({ url: `mc/topics/${id}/leave`, method: 'POST', data: {}, silent: true }),
  saveSettings: (id: number, minCellCount: number) =>
    rest<{ minCellCount: number }>({
      url: `mc/topics/${id}/settings`,
      method: 'PUT',
      data: { minCellCount },
      silent: true,
    }),
  invitations: () => rest<Invitation[]>({ url: 'mc/invitations' }),
  answer: (topicId: number, answer: 'accept' | 'decline') =>
    rest<unknown>({ url: `mc/invitations/${topicId}/${answer}`, method: 'POST', data: {}, silent: true }),
};
