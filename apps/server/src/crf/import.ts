import {
  type Form,
  FormImportError,
  fromJson,
  fromOdm,
  fromOdmStudy,
  fromRedcap,
  readOdmClinicalData,
  readRedcapRecords,
} from '@crdp/crf';
import { readCsv } from '../files/csv.js';
import { invalid } from './actor.js';

export { MAX_ODM_CHARS } from '@crdp/crf';

/**
 * The form files the CRF import reads (CDISC ODM, REDCap data dictionary, CRF JSON), run in the
 * parse worker. The translation is `@crdp/crf`'s (pure, tested there); the server reads the CSV
 * with its one CSV module and answers a refusal as a 400 naming `body.<field>`.
 */
function refused<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof FormImportError) throw invalid(`body.${e.field}`, e.zh, e.en);
    throw e;
  }
}

export const importOdm = (text: string, formOid?: string) => refused(() => fromOdm(text, formOid));
export const importOdmStudy = (text: string) => refused(() => fromOdmStudy(text));
export const importOdmData = (text: string, form: Form, formOid?: string) =>
  refused(() => readOdmClinicalData(text, form, formOid));
export const importRedcap = (text: string) => refused(() => fromRedcap(readCsv(text, 'body.content')));
export const importRedcapData = (text: string, form: Form) =>
  refused(() => readRedcapRecords(readCsv(text, 'body.content'), form));
export const importJson = (text: string) => refused(() => fromJson(text));
