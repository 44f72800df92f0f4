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
// biome-ignore lint/suspicious/noExplicitAny: result JSON of the server, read field by field
type Any = Record<string, any>;
export const mcApi = {
  list: () => rest<Topic[]>({ url: 'mc/topics' }),
  create: (data: unknown) => rest<{ id: number }>({ url: 'mc/topics', method: 'POST', data }),
  get: (id: number) => rest<Any>({ url: `mc/topics/${id}` }),
  saveProtocol: (id: number, data: unknown) =>
    rest<Any>({ url: `mc/topics/${id}/protocol`, method: 'PUT', data }),
  pooled: (id: number) => rest<Any>({ url: `mc/topics/${id}/pooled` }),
  detection: (id: number) => rest<Any[]>({ url: `mc/topics/${id}/detection` }),
};
