import type {
  DataElement,
  DataElementCreate,
  DataElementDetail,
  DataElementList,
  DataElementPublish,
  DataElementRead,
  DataElementUpdates,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the data-element page (apps/server/src/data-elements/routes.ts). */
const P = 'data-elements';
export const elementsApi = {
  list: (keyword: string) => rest<DataElementList>({ url: P, params: { keyword } }),
  detail: (id: number) => rest<DataElementDetail>({ url: `${P}/${id}` }),
  create: (b: DataElementCreate) => rest<DataElement>({ url: P, method: 'POST', data: b, silent: true }),
  publish: (id: number, b: DataElementPublish) =>
    rest<DataElement>({ url: `${P}/${id}/versions`, method: 'POST', data: b, silent: true }),
  remove: (id: number) => rest<true>({ url: `${P}/${id}`, method: 'DELETE' }),
  subscribe: (id: number, on: boolean) =>
    rest<DataElement>({ url: `${P}/${id}/subscribe`, method: on ? 'POST' : 'DELETE' }),
  updates: () => rest<DataElementUpdates>({ url: `${P}/updates` }),
  markRead: () => rest<DataElementRead>({ url: `${P}/updates/read`, method: 'POST', data: {} }),
};
