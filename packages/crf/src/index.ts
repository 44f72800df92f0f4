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
