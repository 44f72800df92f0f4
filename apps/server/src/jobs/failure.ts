import { formatMessage, isMessageKey, type Locale, type MessageKey } from '@crdp/core';
import { type MessageValue, valuesIn } from '../http/errors.js';

/** Why a job failed, by catalogue key, kept in the job's result so any reader gets it in their language. */
export interface JobFailure {
  key: MessageKey;
  values: Record<string, MessageValue>;
}

/** The catalogue key and values of a thrown error that carries them (StatsError, AppError), if any. */
export function failureOf(e: unknown): JobFailure | null {
  if (!(e instanceof Error)) return null;
  const { key, values } = e as Error & { key?: unknown; values?: unknown };
  if (typeof key !== 'string' || !isMessageKey(key)) return null;
  return {
    key,
    values: values && typeof values === 'object' ? (values as Record<string, MessageValue>) : {},
  };
}

/** The English text a failed job keeps in its error column. */
export const failureEnglish = (f: JobFailure) => formatMessage(f.key, 'en-US', valuesIn(f.values, 'en-US'));

/** A failed job's reason in the reader's language when the job kept its key; otherwise its stored text. */
export function jobFailureText(j: { status: string; error: string | null; result: unknown }, locale: Locale) {
  if (j.status !== 'failed') return j.error;
  const f = (j.result as { failure?: { key?: unknown; values?: unknown } } | null)?.failure;
  if (!f || typeof f.key !== 'string' || !isMessageKey(f.key)) return j.error;
  const values = f.values && typeof f.values === 'object' ? (f.values as Record<string, MessageValue>) : {};
  return formatMessage(f.key, locale, valuesIn(values, locale));
}
