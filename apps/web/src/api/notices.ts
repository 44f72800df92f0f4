import type { Notice, NoticeKind, NoticeList, NoticesRead } from '@crdp/core';
import { rest } from './client';

export type { Notice };

export const getNotices = () => rest<NoticeList>({ url: 'notices', keepOnPageChange: true, silent: true });

/** Marks the given notices read; without ids, all of them. */
export const markNoticesRead = (ids?: number[]) =>
  rest<NoticesRead>({ url: 'notices/read', method: 'POST', data: ids ? { ids } : {}, silent: true });

/** A subscribed data element published a new version: drives the header's red info icon. */
export const SUBSCRIPTION_NOTICE_KINDS: readonly string[] = ['dataElement.published' satisfies NoticeKind];
