export { analyzeForm } from './analyze.js';
export { BUILTIN_FORMULAS, BUILTIN_SCALES, type BuiltinFormula, builtinScale } from './builtins.js';
export {
  isApplicable,
  normalise,
  OPERATORS,
  type Operator,
  type ParsedCondition,
  parseCondition,
  parseOperator,
  runCondition,
  type ValueKind,
} from './conditions.js';
export * from './contracts.js';
export { answersInForm } from './embedded.js';
export {
  createFormEngine,
  type EngineOptions,
  type FormEngine,
  type FormSnapshot,
  type Method,
  validateSubmission,
} from './engine.js';
export {
  type BoundInput,
  bindPatient,
  checkFormula,
  evaluateFormula,
  evaluateTemplate,
  FORMULA_MAX_CHARS,
  FORMULA_SOURCES,
  FormulaError,
  type FormulaErrorCode,
  type FormulaNode,
  type FormulaSource,
  type FormulaValue,
  type FormulaVariable,
  formulaFunctionNames,
  type Observed,
  type PatientFacts,
  parseFormula,
  SOURCES_WITH_CODE,
} from './formula.js';
export {
  type CalcFunction,
  type CalcInput,
  createFunctionRegistry,
  dateDifference,
  defaultFunctions,
  type FunctionRegistry,
} from './functions.js';
export { cellText, type ExportColumn, exportColumns } from './io/columns.js';
export { FormImportError } from './io/errors.js';
export { fromJson } from './io/json.js';
export { fromOdm, fromOdmStudy, MAX_ODM_CHARS } from './io/odm.js';
export { type ImportedChange, type ImportedRecord, readOdmClinicalData } from './io/odm-data.js';
export {
  CRDP_ODM_NAMESPACE,
  type OdmChange,
  type OdmRecord,
  odmAdminData,
  odmMetadata,
  odmSubjectData,
  odmUserOid,
  xmlEscape,
} from './io/odm-write.js';
export { fromRedcap, type RedcapCounts } from './io/redcap.js';
export { readRedcapRecords } from './io/redcap-data.js';
export {
  mapRecordToAnswers,
  PREFILL_REASON_CODES,
  type PrefillReason,
  placeEntries,
  prefillReasonText,
  type RecordEntry,
  type RecordMapping,
  readRecordEntries,
  type UnmatchedEntry,
} from './record.js';
export {
  bandOf,
  ScaleAnswerError,
  type ScaleBand,
  type ScaleDefinition,
  type ScaleIssue,
  type ScaleItem,
  type ScaleOption,
  type ScaleScore,
  scaleFormItems,
  scaleIssues,
  scaleRange,
  scoreScale,
} from './scales.js';
export { type FormFault, FormParseError, formSchema, parseForm } from './schema.js';
export * from './types.js';
export { itemValueKind } from './value-kind.js';
export {
  answerItems,
  childrenOf,
  formItems,
  isItem,
  type PlacedItem,
  type WalkPlace,
  walkBelow,
  walkForm,
} from './walk.js';
