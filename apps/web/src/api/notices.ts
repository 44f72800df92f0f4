import { rest } from './client';

export interface Notice {
  id: number;
  kind: string;
  title: string;
  body: string | null;
  link: string | null;
  createdAt: string;
  readAt: string | null;
}

export const getNotices = () =>
  rest<{ items: Notice[]; unread: number }>({ url: 'notices', keepOnPageChange: true, silent: true });

/** Marks the given notices read; without ids, all of them. */
export const markNoticesRead = (ids?: number[]) =>
  rest<unknown>({ url: 'notices/read', method: 'POST', data: ids ? { ids } : {}, silent: true });

/** A subscribed data element published a new version: drives the header's red info icon. */
export const SUBSCRIPTION_NOTICE_KINDS = ['dataElement.published'];
