export * from './suppress.js';

/**
 * What the multi-center data-quality check answers per case (server: multicenter/topics.ts,
 * screen: pages/multi-center/Detection.tsx): one contract, so neither side drifts.
 */
export interface DetectionIssue {
  kind: 'missing' | 'outOfRange' | 'duplicate';
  variable?: string;
  /** The variable's label, the value and its range, for the screen to say what to fix. */
  label?: string;
  value?: unknown;
  min?: number;
  max?: number;
  patientId?: number;
  mrn?: string;
  /** For a duplicate: the MRN of the first case of the same person. */
  sameAs?: string;
  /** What to fix, in the reader's language. */
  detail: string;
}
