import type {
  CdrForecast,
  CdrForecastQuery,
  CsvImportBody,
  Dictionary,
  DictionaryCreate,
  DictionaryEntry,
  DictionaryEntryCreate,
  DictionaryEntryPage,
  DictionaryEntryPatch,
  DictionaryEntryQuery,
  DictionaryList,
  DictionaryPatch,
  HospitalUnit,
  HospitalUnitCreate,
  HospitalUnitList,
  HospitalUnitPatch,
  ImportReport,
  JobView,
  T0Event,
  T0EventCreate,
  T0EventList,
  T0EventPatch,
  T0PatientPage,
  T0PatientQuery,
  T0RunStarted,
} from '@crdp/core';
import { rest } from '../../api/client';
import { downloadWithSession } from '../crf/download';

/** Calls of the reference data screens: hospital structure and the two kinds of dictionaries. */
export const unitApi = {
  list: (keyword?: string) =>
    rest<HospitalUnitList>({ url: 'hospital-units', params: keyword ? { keyword } : {} }),
  add: (u: HospitalUnitCreate) =>
    rest<HospitalUnit>({ url: 'hospital-units', method: 'POST', data: u, silent: true }),
  edit: (id: number, u: HospitalUnitPatch) =>
    rest<HospitalUnit>({ url: `hospital-units/${id}`, method: 'PATCH', data: u, silent: true }),
  remove: (id: number) => rest<true>({ url: `hospital-units/${id}`, method: 'DELETE' }),
};

/** The calls of one kind of dictionary: `basic-dictionaries` or the app's own `dictionaries`. */
export function dictionaryApi(builtin: boolean) {
  const base = builtin ? 'basic-dictionaries' : 'dictionaries';
  return {
    list: (keyword?: string) => rest<DictionaryList>({ url: base, params: keyword ? { keyword } : {} }),
    add: (d: DictionaryCreate) => rest<Dictionary>({ url: base, method: 'POST', data: d, silent: true }),
    edit: (id: number, d: DictionaryPatch) =>
      rest<Dictionary>({ url: `${base}/${id}`, method: 'PATCH', data: d, silent: true }),
    remove: (id: number) => rest<true>({ url: `${base}/${id}`, method: 'DELETE' }),
    entries: (id: number, q: DictionaryEntryQuery) =>
      rest<DictionaryEntryPage>({ url: `${base}/${id}/entries`, params: q }),
    addEntry: (id: number, e: DictionaryEntryCreate) =>
      rest<DictionaryEntry>({ url: `${base}/${id}/entries`, method: 'POST', data: e, silent: true }),
    editEntry: (id: number, entryId: number, e: DictionaryEntryPatch) =>
      rest<DictionaryEntry>({
        url: `${base}/${id}/entries/${entryId}`,
        method: 'PATCH',
        data: e,
        silent: true,
      }),
    removeEntry: (id: number, entryId: number) =>
      rest<true>({ url: `${base}/${id}/entries/${entryId}`, method: 'DELETE' }),
    importEntries: (id: number, body: CsvImportBody) =>
      rest<ImportReport>({ url: `${base}/${id}/entries/import`, method: 'POST', data: body }),
    exportEntries: (id: number, code: string) =>
      downloadWithSession(`/api/v0.1/${base}/${id}/entries/export`, `dictionary-${code}.csv`),
  };
}

/** Calls of the T0 events screen. */
export const t0Api = {
  list: () => rest<T0EventList>({ url: 't0-events' }),
  add: (e: T0EventCreate) => rest<T0Event>({ url: 't0-events', method: 'POST', data: e, silent: true }),
  edit: (id: number, e: T0EventPatch) =>
    rest<T0Event>({ url: `t0-events/${id}`, method: 'PATCH', data: e, silent: true }),
  remove: (id: number) => rest<true>({ url: `t0-events/${id}`, method: 'DELETE' }),
  run: (id: number) => rest<T0RunStarted>({ url: `t0-events/${id}/run`, method: 'POST' }),
  patients: (id: number, q: T0PatientQuery) =>
    rest<T0PatientPage>({ url: `t0-events/${id}/patients`, params: q }),
  job: (id: number) => rest<JobView>({ url: `jobs/${id}` }),
};

/** The hospital forecast (医院预测浏览). */
export const forecastApi = {
  get: (q: CdrForecastQuery) => rest<CdrForecast>({ url: 'cdr/forecast', params: q }),
};
