import { readFileSync } from 'node:fs';
import type {
  Codelist,
  CodingKind,
  DataModelStandard,
  DataModelStandardDetail,
  DataModelStandardSummary,
  DataModelTable,
  DataModelVariableType,
} from '@crdp/core';
import { notFound } from '../http/errors.js';

/*
 * The built-in CDISC models, read from the shipped files in apps/server/cdisc (made by
 * build-cdisc.py from the public sources named in cdisc/SOURCES.md). Read once per process;
 * they never change at run time.
 */

interface ShippedVariable {
  name: string;
  label: string;
  type: string;
  role: string;
  core: string;
  codelist: string | null;
  codingKind: CodingKind | null;
  sdtmTarget?: string | null;
}
interface ShippedModel {
  standard: string;
  version: string;
  source: string;
  domains: Array<{
    name: string;
    label: string;
    class: string;
    structure: string;
    variables: ShippedVariable[];
  }>;
}
interface ShippedCt {
  standard: string;
  version: string;
  source: string;
  codelists: Record<
    string,
    { name: string; extensible: boolean | null; terms: Array<[string, string, string]> }
  >;
}

/** apps/server/cdisc, two levels up from src/data-models and dist/data-models. */
const SHIPPED = new URL('../../cdisc/', import.meta.url);
const FILES: Record<DataModelStandard, string> = { sdtmig: 'sdtmig-3.4.json', cdashig: 'cdashig-2.1.json' };

const cache = new Map<string, unknown>();
function shipped<T>(file: string): T {
  let v = cache.get(file);
  if (!v) {
    v = JSON.parse(readFileSync(new URL(file, SHIPPED), 'utf8'));
    cache.set(file, v);
  }
  return v as T;
}

export const controlledTerminology = () => shipped<ShippedCt>('ct.json');

export function codelistName(code: string): string {
  return code ? (controlledTerminology().codelists[code]?.name ?? '') : '';
}

function tablesOf(m: ShippedModel): DataModelTable[] {
  return m.domains.map((d) => ({
    id: 0,
    name: d.name,
    label: d.label,
    tableClass: d.class,
    structure: d.structure,
    variables: d.variables.map((v) => ({
      id: 0,
      name: v.name,
      label: v.label,
      type: v.type as DataModelVariableType,
      role: v.role,
      core: v.core,
      codelist: v.codelist ?? '',
      codelistName: codelistName(v.codelist ?? ''),
      codingKind: v.codingKind,
      sdtmTarget: v.sdtmTarget ?? null,
    })),
  }));
}

function summaryOf(key: DataModelStandard): DataModelStandardSummary {
  const m = shipped<ShippedModel>(FILES[key]);
  const ct = controlledTerminology();
  const variables = m.domains.flatMap((d) => d.variables);
  return {
    key,
    standard: m.standard,
    version: m.version,
    source: m.source,
    ctVersion: `${ct.standard} ${ct.version}`,
    ctSource: ct.source,
    tables: m.domains.length,
    variables: variables.length,
    codelists: new Set(variables.map((v) => v.codelist).filter(Boolean)).size,
  };
}

export function listStandards(): DataModelStandardSummary[] {
  return (Object.keys(FILES) as DataModelStandard[]).map(summaryOf);
}

export function standardModel(key: DataModelStandard): DataModelStandardDetail {
  return { ...summaryOf(key), tables: tablesOf(shipped<ShippedModel>(FILES[key])) };
}

export function codelistOf(code: string): Codelist {
  const ct = controlledTerminology();
  const c = ct.codelists[code];
  if (!c) throw notFound('codelist');
  return {
    code,
    name: c.name,
    extensible: c.extensible,
    version: `${ct.standard} ${ct.version}`,
    terms: c.terms.map(([termCode, value, synonym]) => ({ code: termCode, value, synonym })),
  };
}
