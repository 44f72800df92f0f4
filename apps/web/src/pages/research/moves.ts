import type { TaskStatus } from '@crdp/core';

/** Moves that end something people rely on: recruiting stops, or the subject closes or ends. */
const STOPPING: ReadonlySet<TaskStatus> = new Set(['recruitmentStopped', 'closed', 'topicConcluded']);

/**
 * Whether a status move asks first: a move to a stopping status, or any move away from
 * recruiting (no patient is recruited after it). Other moves happen at once.
 */
export function moveNeedsConfirmation(from: string, to: TaskStatus): boolean {
  return STOPPING.has(to) || (from === 'recruiting' && to !== 'recruiting');
}

/** What the confirmation says the move does. */
export function moveConsequence(from: string, to: TaskStatus): 'stopRecruiting' | 'close' | 'conclude' {
  if (to === 'closed') return 'close';
  if (to === 'topicConcluded') return 'conclude';
  return from === 'recruiting' || to === 'recruitmentStopped' ? 'stopRecruiting' : 'close';
}
