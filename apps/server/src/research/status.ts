import { TASK_STATUS_TABLE, type TaskStatus } from '@crdp/core';

/**
 * The life of a research subject (spec 001 section 3 lists the statuses; the moves are ours).
 *
 *   staged ─► recruiting ⇄ recruitmentStopped ─► dataPreparing ⇄ dataPrepared ─► calculationDone ─► topicConcluded
 *                                                      ▲                               │
 *                                                      └───────────────────────────────┘ (rebuild the dataset)
 * Any status before the conclusion may be closed (abandoned); a closed subject may be reopened
 * to staged. A concluded subject is final: its results were reported.
 * Some moves also need facts: data prepared needs a built dataset, calculation done a finished
 * analysis, recruitment stopped at least... nothing (a study may recruit no one and stop).
 */
export const TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  staged: ['recruiting', 'closed'],
  recruiting: ['recruitmentStopped', 'closed'],
  recruitmentStopped: ['recruiting', 'dataPreparing', 'closed'],
  dataPreparing: ['dataPrepared', 'recruitmentStopped', 'closed'],
  dataPrepared: ['calculationDone', 'dataPreparing', 'closed'],
  calculationDone: ['topicConcluded', 'dataPreparing', 'closed'],
  closed: ['staged'],
  topicConcluded: [],
};

export const allowedMoves = (from: TaskStatus): readonly TaskStatus[] => TRANSITIONS[from] ?? [];
export const canMove = (from: TaskStatus, to: TaskStatus) => allowedMoves(from).includes(to);

/** The status label in a locale, for messages. */
export function statusLabel(code: string, locale: 'zh-CN' | 'en-US') {
  return TASK_STATUS_TABLE.find((e) => e.code === code)?.label[locale] ?? code;
}

/** Where each kind of work may happen. */
export const WORK_STATUSES = {
  recruit: ['recruiting'],
  buildDataset: ['dataPreparing'],
  analyse: ['dataPrepared', 'calculationDone'],
  editDesign: ['staged', 'recruiting', 'recruitmentStopped'],
} as const satisfies Record<string, readonly TaskStatus[]>;
