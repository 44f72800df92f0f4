import type {
  CreatedId,
  DetectionIssue,
  McCaseInput,
  McCenterAnswer,
  McCenterCheck,
  McCenterStatus,
  McInvitableCenter,
  McInvitation,
  McInvited,
  McInviteInput,
  McMoved,
  McOwnCase,
  McPatientOption,
  McPooled,
  McProtocol,
  McSettings,
  McTopicBody,
  McTopicDetail,
  McTopicRow,
  McTopicSummary,
  McTopicVariable,
  McTopicVariableInput,
  McWithdrawn,
  PooledSummary,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the multi-center pages (apps/server/src/multicenter/routes.ts); shapes from @crdp/core. */
export type Topic = McTopicSummary;
export type TopicVariable = McTopicVariable;
export type TopicVariableInput = McTopicVariableInput;
export type Center = McInvitableCenter;
export type TopicDetail = McTopicDetail;
export type CenterStatus = McCenterStatus;
export type Invitation = McInvitation;
export type OwnCase = McOwnCase;
export type PatientOption = McPatientOption;
export type CenterCheck = McCenterCheck;
export type Issue = DetectionIssue;
/** The pooled summary of one center or of all. */
export type Summary = PooledSummary;
export type Pooled = McPooled;

/** The manage-a-topic function: invitations, protocol, status, the minimum cell count. */
export const MANAGE_TOPIC = 'MultiCenterTopicDescription.edit';

export const mcApi = {
  list: () => rest<Topic[]>({ url: 'mc/topics' }),
  centers: () => rest<Center[]>({ url: 'mc/centers', silent: true }),
  create: (data: McTopicBody) => rest<McTopicRow>({ url: 'mc/topics', method: 'POST', data, silent: true }),
  get: (id: number) => rest<TopicDetail>({ url: `mc/topics/${id}` }),
  saveProtocol: (id: number, data: Partial<McProtocol>) =>
    rest<McTopicRow>({ url: `mc/topics/${id}/protocol`, method: 'PUT', data }),
  move: (id: number, to: string) =>
    rest<McMoved>({ url: `mc/topics/${id}/status`, method: 'POST', data: { to }, silent: true }),
  patients: (id: number, keyword?: string) =>
    rest<PatientOption[]>({ url: `mc/topics/${id}/patients`, params: keyword ? { keyword } : {} }),
  cases: (id: number) => rest<OwnCase[]>({ url: `mc/topics/${id}/cases` }),
  enter: (id: number, data: McCaseInput) =>
    rest<CreatedId>({ url: `mc/topics/${id}/cases`, method: 'POST', data, silent: true }),
  pooled: (id: number) => rest<Pooled>({ url: `mc/topics/${id}/pooled` }),
  detection: (id: number) => rest<CenterCheck[]>({ url: `mc/topics/${id}/detection` }),
  invite: (id: number, data: McInviteInput) =>
    rest<McInvited>({
      url: `mc/topics/${id}/centers`,
      method: 'POST',
      data,
      silent: true,
    }),
  withdraw: (id: number, appId: number) =>
    rest<McWithdrawn>({ url: `mc/topics/${id}/withdraw`, method: 'POST', data: { appId }, silent: true }),
  leave: (id: number) =>
    rest<McCenterAnswer>({ url: `mc/topics/${id}/leave`, method: 'POST', data: {}, silent: true }),
  saveSettings: (id: number, minCellCount: number) =>
    rest<McSettings>({
      url: `mc/topics/${id}/settings`,
      method: 'PUT',
      data: { minCellCount },
      silent: true,
    }),
  invitations: () => rest<Invitation[]>({ url: 'mc/invitations' }),
  answer: (topicId: number, answer: 'accept' | 'decline') =>
    rest<McCenterAnswer>({
      url: `mc/invitations/${topicId}/${answer}`,
      method: 'POST',
      data: {},
      silent: true,
    }),
};
