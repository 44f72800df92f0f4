export { analyzeForm } from './analyze.js';
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
  type CalcFunction,
  type CalcInput,
  createFunctionRegistry,
  dateDifference,
  defaultFunctions,
  type FunctionRegistry,
} from './functions.js';
export { FormImportError } from './io/errors.js';
export { fromJson } from './io/json.js';
export { fromOdm, MAX_ODM_CHARS } from './io/odm.js';
export { fromRedcap } from './io/redcap.js';
export {
  mapRecordToAnswers,
  type RecordEntry,
  type RecordMapping,
  readRecordEntries,
  type UnmatchedEntry,
} from './record.js';
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
