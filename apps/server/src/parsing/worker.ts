/**
 * The parse worker: runs in a worker thread of the pool (`pool.ts`), never on the server's event
 * loop. Each task is pure work on an uploaded file (no database, no request); a typed refusal
 * (`AppError`, e.g. "not well-formed XML (line 3: …)") comes back as data, because an error
 * object crossing threads loses its class and fields, and the pool turns it back into the same
 * AppError. Anything else is thrown and reaches the caller as an ordinary error.
 */
import { type CsvImportInput, mapCsv } from '../clinical/imports/csv.js';
import { mapFhirBundle } from '../clinical/imports/fhir.js';
import {
  importJson,
  importOdm,
  importOdmData,
  importOdmStudy,
  importRedcap,
  importRedcapData,
} from '../crf/import.js';
import { readCsv } from '../files/csv.js';
import { AppError } from '../http/errors.js';
import type { ParseOutcome, ParseTask } from './tasks.js';

function run(task: ParseTask): unknown {
  switch (task.kind) {
    case 'crf.odm':
      return importOdm(task.text, task.formOid);
    case 'crf.odm.study':
      return importOdmStudy(task.text);
    case 'crf.odm.data':
      return importOdmData(task.text, task.form, task.formOid);
    case 'crf.redcap.data':
      return importRedcapData(task.text, task.form);
    case 'crf.redcap':
      return importRedcap(task.text);
    case 'crf.json':
      return importJson(task.text);
    case 'csv.rows':
      return readCsv(task.text, task.field);
    case 'cdr.csv':
      return mapCsv(task.input as CsvImportInput);
    case 'cdr.fhir':
      return mapFhirBundle(task.bundle);
  }
}

export default function parse(task: ParseTask): ParseOutcome {
  try {
    return { ok: true, value: run(task) };
  } catch (e) {
    if (e instanceof AppError)
      return { ok: false, error: { status: e.status, key: e.key, values: e.values, field: e.field } };
    throw e;
  }
}
