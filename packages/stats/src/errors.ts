import { formatMessage, type MessageKey } from '@crdp/core';

/**
 * Why a statistical method cannot run on the data it was given. The message is English (what
 * the job's error column keeps); `key` and `values` let the task result word it per language.
 */
export class StatsError extends Error {
  constructor(
    readonly key: MessageKey,
    readonly values: Record<string, string | number> = {},
  ) {
    super(formatMessage(key, 'en-US', values));
    this.name = 'StatsError';
  }
}
