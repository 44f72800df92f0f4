import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { timestampOrNull } from './common.js';

/**
 * The terminology store (术语服务) shared by the coding area (issue 18) and the terminology and
 * semantic services (issue 19): code systems with version and licence, their concepts (hierarchy,
 * synonyms, pinyin initials) and a hospital's local extension codes. Server:
 * apps/server/src/terminology; web: apps/web/src/pages/terminology.
 */

/** What a code system codes; each has its new-code screen (data-clean/<screen>-new-code). */
export const TERMINOLOGY_DOMAINS = ['disease', 'surgery', 'lab', 'drug'] as const;
export type TerminologyDomain = (typeof TERMINOLOGY_DOMAINS)[number];

/** The code system each new-code screen adds to, and the function the screen's add needs. */
export const NEW_CODE_SCREENS = {
  disease: { systemKey: 'ICD10', routeName: 'DataCleanDiseaseNewCode' },
  surgery: { systemKey: 'ICD9CM3', routeName: 'DataCleanSurgeryNewCode' },
  lab: { systemKey: 'LOINC', routeName: 'DataCleanInspectionNewCode' },
  drug: { systemKey: 'DRUG', routeName: 'DataCleanDrugNewCode' },
} as const satisfies Record<TerminologyDomain, { systemKey: string; routeName: string }>;

export const CONCEPT_CODE_MAX = 40;
export const CONCEPT_DISPLAY_MAX = 200;
export const CONCEPT_SYNONYMS_MAX = 20;
export const TERMINOLOGY_SEARCH_MAX = 100;
/** Codes: letters, digits and . - _ + / * (A00, E11.900, 718-7, 01.0901, B01AC06). */
export const CONCEPT_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.\-_+/*]*$/;
export const SYSTEM_KEY_PATTERN = /^[A-Z][A-Z0-9_]*$/;

const systemKey = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(30)
  .regex(SYSTEM_KEY_PATTERN, 'is a system key such as ICD10 or LOINC');
const conceptCode = safeText(CONCEPT_CODE_MAX, { min: 1, required: 'must not be blank' }).regex(
  CONCEPT_CODE_PATTERN,
  'may hold letters, digits and . - _ + / * only, starting with a letter or digit',
);
const display = (min: number) => safeText(CONCEPT_DISPLAY_MAX, { min, required: 'must not be blank' });

/** A code system with the version loaded, its licence and source, and how many codes it holds. */
export const terminologySystem = z.object({
  systemKey: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  domain: z.enum(TERMINOLOGY_DOMAINS),
  version: z.string(),
  licence: z.string(),
  sourceUrl: z.string(),
  uri: z.string(),
  loadedAt: timestampOrNull,
  /** Standard codes of the site. */
  conceptCount: z.number().int(),
  /** This hospital's local extension codes. */
  localCount: z.number().int(),
});
export type TerminologySystem = z.infer<typeof terminologySystem>;
export const terminologySystemList = z.array(terminologySystem);

/** Why a concept matched a search, best first (the ranking of `terminology/concepts`). */
export const CONCEPT_MATCH_KINDS = [
  'codeExact',
  'codePrefix',
  'nameExact',
  'namePrefix',
  'nameContains',
  'pinyin',
] as const;
export type ConceptMatchKind = (typeof CONCEPT_MATCH_KINDS)[number];

export const conceptSearchQuery = z.object({
  q: z.string().trim().min(1, 'must not be blank').max(50),
  system: systemKey.optional(),
  limit: z.coerce.number().int().min(1).max(TERMINOLOGY_SEARCH_MAX).default(20),
});
export type ConceptSearchQuery = z.input<typeof conceptSearchQuery>;

/** A concept as lists show it. */
export const conceptSummary = z.object({
  conceptId: z.number().int(),
  systemKey: z.string(),
  code: z.string(),
  displayZh: z.string(),
  displayEn: z.string(),
  parentCode: z.string().nullable(),
  level: z.number().int(),
  retired: z.boolean(),
  pinyin: z.string(),
  local: z.boolean(),
});
export type ConceptSummary = z.infer<typeof conceptSummary>;

export const conceptHit = conceptSummary.extend({
  match: z.enum(CONCEPT_MATCH_KINDS),
  /** The synonym that matched, when a synonym and not the display matched. */
  matchedSynonym: z.string().nullable(),
});
export type ConceptHit = z.infer<typeof conceptHit>;
export const conceptHitList = z.array(conceptHit);

export const conceptQuery = z.object({ system: systemKey, code: conceptCode });
export type ConceptQuery = z.input<typeof conceptQuery>;

/** One concept with its place in the hierarchy (root first) and the codes directly under it. */
export const conceptDetail = conceptSummary.extend({
  synonyms: z.array(z.string()),
  ancestors: z.array(conceptSummary),
  children: z.array(conceptSummary),
  system: terminologySystem.omit({ conceptCount: true, localCount: true }),
});
export type ConceptDetail = z.infer<typeof conceptDetail>;

/**
 * A concept's mapping to another system: a local extension code to its nearest standard ancestor
 * (`wider`), a standard code to the OMOP concept this hospital's OMOP maps give it (`equivalent`).
 */
export const conceptMapping = z.object({
  relation: z.enum(['wider', 'equivalent']),
  /** A terminology system key (ICD10...) or OMOP. */
  system: z.string(),
  systemUri: z.string(),
  code: z.string(),
  display: z.string(),
});
export type ConceptMapping = z.infer<typeof conceptMapping>;

/**
 * Where the code is used in this hospital's data, counted in one CDR table: the rows (and their
 * patients) that carry the code as recorded at the source, and those the coding area mapped to it
 * (the cdr_coded_* views); `…Below` also counts the codes under it.
 */
export const conceptUsage = z.object({
  /** The CDR table, as its cdrTable label key (diagnoses, operations, labResults, orders). */
  table: z.string(),
  recordedRows: z.number().int(),
  recordedPatients: z.number().int(),
  recordedRowsBelow: z.number().int(),
  recordedPatientsBelow: z.number().int(),
  codedRows: z.number().int(),
  codedPatients: z.number().int(),
  codedRowsBelow: z.number().int(),
  codedPatientsBelow: z.number().int(),
  /** Local terms the coding area maps to this code (at most 20, most rows first) and how many there are. */
  localTerms: z.array(z.object({ term: z.string(), rows: z.number().int() })),
  localTermCount: z.number().int(),
});
export type ConceptUsage = z.infer<typeof conceptUsage>;

/** The browser's concept detail: the concept, its mappings and its use in this hospital's data. */
export const conceptDetailFull = conceptDetail.extend({
  mappings: z.array(conceptMapping),
  usage: conceptUsage,
});
export type ConceptDetailFull = z.infer<typeof conceptDetailFull>;

/** A local extension code added under a parent of the screen's code system. */
export const localCodeCreate = z.object({
  /** The code it sits under (a standard code or another local code); null at the top. */
  parentCode: conceptCode.nullable().default(null),
  code: conceptCode,
  displayZh: display(1),
  displayEn: display(0).default(''),
  synonyms: z.array(display(1)).max(CONCEPT_SYNONYMS_MAX).default([]),
});
export type LocalCodeCreate = z.input<typeof localCodeCreate>;

export const localCodeParams = z.object({ domain: z.enum(TERMINOLOGY_DOMAINS) });

/** CSV columns of a code system's full-list import (`code` and `display_zh` required). */
export const TERMINOLOGY_CSV_COLUMNS = [
  'code',
  'display_zh',
  'display_en',
  'parent_code',
  'level',
  'retired',
  'synonyms',
] as const;

/** The body of a code system's full-list import: the version the file is, and the file. */
export const terminologyImportBody = z.object({
  systemKey,
  version: safeText(40, { min: 1, required: 'must not be blank' }),
  fileName: z.string().trim().min(1).max(200),
  text: z.string().min(1).max(50_000_000),
});
export type TerminologyImportBody = z.input<typeof terminologyImportBody>;

/**
 * `POST /api/v0.1/terminology/app` (the spec writes `erminology/app`): look up terms or codes.
 * Each item is a code (`system` + `code`) or a term to search (`term`, optionally in `system`).
 */
export const terminologyLookupBody = z.object({
  items: z
    .array(
      z.object({
        system: systemKey.optional(),
        code: conceptCode.optional(),
        term: z.string().trim().min(1).max(50).optional(),
      }),
    )
    .min(1)
    .max(100),
  limit: z.number().int().min(1).max(20).default(5),
});
export type TerminologyLookupBody = z.input<typeof terminologyLookupBody>;
export const terminologyLookupAnswer = z.array(
  z.object({ index: z.number().int(), found: z.boolean(), concepts: z.array(conceptHit) }),
);
export type TerminologyLookupAnswer = z.infer<typeof terminologyLookupAnswer>;

/** FHIR R4 `CodeSystem/$lookup` (GET): the system's canonical URL (CodeSystem.url) and the code. */
export const fhirLookupQuery = z.object({
  system: z.string().trim().min(1, 'must not be blank').max(200),
  code: conceptCode,
});
export type FhirLookupQuery = z.input<typeof fhirLookupQuery>;

const fhirParameter = z.object({
  name: z.string(),
  valueString: z.string().optional(),
  valueCode: z.string().optional(),
  valueBoolean: z.boolean().optional(),
  part: z
    .array(
      z.object({
        name: z.string(),
        valueCode: z.string().optional(),
        valueString: z.string().optional(),
        valueUri: z.string().optional(),
        valueCoding: z
          .object({ system: z.string(), code: z.string(), display: z.string().optional() })
          .optional(),
      }),
    )
    .optional(),
});
/** The FHIR R4 `Parameters` resource `$lookup` answers (name, version, display, designation, parent, child, inactive). */
export const fhirParameters = z.object({
  resourceType: z.literal('Parameters'),
  parameter: z.array(fhirParameter),
});
export type FhirParameters = z.infer<typeof fhirParameters>;

/**
 * The system URI `ConceptMap/$translate` names OMOP CDM standard concepts by (the concept_id as
 * the code), as the OHDSI FHIR terminology server does.
 */
export const OMOP_CONCEPT_URI = 'https://fhir-terminology.ohdsi.org';
export const FHIR_EXPAND_MAX = 1000;

/**
 * FHIR R4 `ValueSet/$expand` (GET): `url` is a code system's canonical URI (CodeSystem.url, or
 * the implicit value set `<uri>?fhir_vs`) meaning all its codes; `filter` keeps the codes whose
 * code starts with it or whose name, synonym or pinyin initials hold it; `count`/`offset` page.
 */
export const fhirExpandQuery = z.object({
  url: z.string().trim().min(1, 'must not be blank').max(200),
  filter: z.string().trim().max(50).optional(),
  count: z.coerce.number().int().min(0).max(FHIR_EXPAND_MAX).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type FhirExpandQuery = z.input<typeof fhirExpandQuery>;

/** A FHIR R4 `ValueSet` with its expansion (total, offset, the page's codes). */
export const fhirValueSet = z.object({
  resourceType: z.literal('ValueSet'),
  url: z.string(),
  status: z.literal('active'),
  expansion: z.object({
    identifier: z.string(),
    timestamp: z.string(),
    total: z.number().int(),
    offset: z.number().int(),
    parameter: z.array(
      z.object({
        name: z.string(),
        valueString: z.string().optional(),
        valueInteger: z.number().int().optional(),
      }),
    ),
    contains: z.array(
      z.object({
        system: z.string(),
        version: z.string().optional(),
        code: z.string(),
        display: z.string(),
        inactive: z.boolean().optional(),
      }),
    ),
  }),
});
export type FhirValueSet = z.infer<typeof fhirValueSet>;

/**
 * FHIR R4 `ConceptMap/$translate` (GET): a code of `system` into `targetsystem`. Local extension
 * code → its nearest standard ancestor (same system URI); ICD-10 (and LOINC, drug) code ↔ OMOP
 * concept (`OMOP_CONCEPT_URI`, the concept_id as code) through the app's OMOP maps.
 */
export const fhirTranslateQuery = z.object({
  system: z.string().trim().min(1, 'must not be blank').max(200),
  code: conceptCode,
  targetsystem: z.string().trim().min(1, 'must not be blank').max(200),
});
export type FhirTranslateQuery = z.input<typeof fhirTranslateQuery>;

/** A FHIR R4 `OperationOutcome`: what the FHIR calls answer on an error. */
export const fhirOperationOutcome = z.object({
  resourceType: z.literal('OperationOutcome'),
  issue: z.array(
    z.object({
      severity: z.enum(['fatal', 'error', 'warning', 'information']),
      code: z.string(),
      diagnostics: z.string(),
      expression: z.array(z.string()).optional(),
      details: z.object({ coding: z.array(z.object({ system: z.string(), code: z.string() })) }).optional(),
    }),
  ),
});
export type FhirOperationOutcome = z.infer<typeof fhirOperationOutcome>;

export const SEMANTIC_TEXT_MAX = 2000;
/** How a span of the phrase matched a concept: its name, a synonym, or a name once abbreviations are spelled out. */
export const SEMANTIC_MATCH_KINDS = ['name', 'synonym', 'abbreviation'] as const;

/**
 * `POST /api/terminology/semantic`: a clinical phrase (患者否认高血压，3天前出现发热) normalised into
 * concepts with their spans: jieba segmentation, names and synonyms of the terminology store
 * (longest match wins, spans never overlap), negation, uncertainty, time and laterality of each
 * concept read in its clause by the cleaning engine's qualifiers. `systems` limits the code
 * systems (default: all).
 */
export const semanticBody = z.object({
  text: safeText(SEMANTIC_TEXT_MAX, { min: 1, multiline: true, required: 'must not be blank' }),
  systems: z.array(systemKey).min(1).max(10).optional(),
});
export type SemanticBody = z.input<typeof semanticBody>;

const span = { start: z.number().int(), end: z.number().int() };
/** A concept found in the phrase, at [start, end) (UTF-16 offsets of `text`). */
export const semanticConcept = conceptSummary.extend({
  ...span,
  text: z.string(),
  matchedBy: z.enum(SEMANTIC_MATCH_KINDS),
  matchedSynonym: z.string().nullable(),
  negated: z.boolean(),
  uncertain: z.boolean(),
  /** Relative time of the finding (3天前) and its days (negative: before). */
  time: z.string().nullable(),
  timeDays: z.number().nullable(),
  laterality: z.enum(['left', 'right', 'both']).nullable(),
  /** The words that said so (无, 疑似, 3天前, 左). */
  cues: z.array(z.object({ ...span, role: z.enum(['negation', 'uncertainty', 'time', 'laterality']) })),
});
export type SemanticConcept = z.infer<typeof semanticConcept>;
export const semanticAnswer = z.object({
  text: z.string(),
  /** The words of the phrase (jieba), white space left out. */
  tokens: z.array(z.object({ ...span, text: z.string() })),
  concepts: z.array(semanticConcept),
});
export type SemanticAnswer = z.infer<typeof semanticAnswer>;
