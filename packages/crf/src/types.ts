/**
 * The form model as the older product stored it. Field names are kept verbatim (including
 * `compulateType` and `ShowItemRelationFlg`) so its forms import unchanged; every object
 * also keeps the fields we do not know, which is why each interface is open.
 */

export const ITEM_TYPES = [
  'radio',
  'checkbox',
  'textQuestion',
  'gapFilling',
  'paragraph',
  'matrix',
  'upload',
  'score',
] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** Fields under which a container or page lists its children, walked in document order. */
export const CONTAINER_FIELDS = ['groups', 'panel', 'matrixNew', 'table', 'topicGroup', 'items'] as const;
export type ContainerField = (typeof CONTAINER_FIELDS)[number];

/** Loose flags: the older product wrote booleans, 0/1 and '0'/'1' interchangeably. */
export type Flag = boolean | 0 | 1 | '0' | '1' | 'true' | 'false';
export type NumberLike = number | string;

export interface Option {
  name: string;
  code: string | number;
  score?: NumberLike;
  [extra: string]: unknown;
}

/** Bounds shared by gap-filling blanks and matrix rows. */
export interface Bounds {
  /** Fewest characters. */
  minNub?: NumberLike | null;
  /** Most characters. */
  maxNub?: NumberLike | null;
  /** Smallest number. */
  minVal?: NumberLike | null;
  /** Largest number. */
  maxVal?: NumberLike | null;
}

export interface Blank extends Bounds {
  key?: string;
  /** What the blank holds: 'text' (default), 'number' or 'date'. */
  gapFillingProperty?: string;
  isRequired?: Flag;
  title?: string;
  value?: unknown;
  [extra: string]: unknown;
}

export interface MatrixRow extends Bounds {
  key?: string;
  name?: string;
  /** What each cell holds: 'radio' (default), 'checkbox', 'text' or 'number'. */
  matrixProperty?: string;
  selectLeastValue?: NumberLike | null;
  selectMostValue?: NumberLike | null;
  [extra: string]: unknown;
}

export interface Condition {
  /** Key of the item whose answer is tested. */
  indicatorName: string;
  /** The value tested against; a list for 'in list', a type name for 'field type'. */
  indicatorVal?: unknown;
  condition: string;
}

export interface ShowRule extends Partial<Condition> {
  condition: string;
  /** Keys of items shown while the condition holds. */
  selectItems?: string[] | string;
  /** Keys of pages or containers shown while the condition holds. */
  selectPanel?: string[] | string;
  [extra: string]: unknown;
}

export interface RequiredRule {
  /** 'all': every rule must hold; anything else ('any'): one is enough. */
  condition?: string;
  rules: Condition[];
  [extra: string]: unknown;
}

export interface Calculation {
  /** Kind of calculation; names the function when `func` is absent. */
  compulateType?: string;
  /** Function name in the registry: sum, average, min, max, count, score, bmi, dateDiff, age. */
  func?: string;
  /** Source item keys. */
  fields?: string[] | string;
  /** Unit for date differences (days, months, years) or the value counted by count. */
  compare?: unknown;
  /** Ordered operands for two-operand functions: BMI weight/height, start/end date, birth/at date. */
  xyValue?: { x?: string; y?: string } | string[];
  [extra: string]: unknown;
}

/** Text questions may carry the same bounds as blanks. */
export interface FormItem extends Bounds {
  key: string;
  type: ItemType;
  title?: string;
  /** Variant: 'select' renders a radio as a dropdown, 'multi' lets it take several values. */
  typeQ?: string;
  isRequired?: Flag;
  /** Hidden unless a show rule shows it. */
  isHide?: Flag;
  /** Shown but not editable on the form screen (REDCap's @READONLY); its value comes from an import, a default or the API. */
  readOnly?: Flag;
  /** Stored answer of a radio (older forms carry answers inside the form). */
  radio?: unknown;
  /** Stored answer of a checkbox. */
  checkList?: unknown;
  options?: Option[];
  /** Text question content: 'text', 'textarea', 'number', 'date'. */
  textType?: string;
  /** Display style only; no effect on rules. */
  typeStyle?: string;
  /** Input control kind ('number' makes the value numeric). */
  inputType?: string;
  /** Decimals kept for numbers and computed values. */
  fixed?: NumberLike | null;
  /** Checkbox: fewest options to choose. */
  selectLeastValue?: NumberLike | null;
  /** Checkbox: most options to choose. */
  selectMostValue?: NumberLike | null;
  /** Stored answer of a matrix, by row key. */
  matrixValue?: unknown;
  /** Matrix form: 'radio' (one column per row), 'checkbox' or 'input' (a cell per column). */
  forM?: string;
  rows?: MatrixRow[];
  columns?: Option[];
  gapFilling?: Blank[];
  /** The calculation that fills this item. */
  fxTopicData?: Calculation;
  /** Whether the item is computed (on when fxTopicData is present unless set to 0/false). */
  fxRadio?: Flag;
  /** Whether a person may overwrite the computed value. */
  fxManual?: Flag;
  /** Last computed value. */
  fxVal?: unknown;
  /** 'machine' when the value was computed, 'manual' when a person entered it. */
  method?: string;
  /** Groups items that share one answer (same concept on several pages). */
  reuniteId?: string;
  /** Whether the show rules on this item are active (default on). */
  ShowItemRelationFlg?: Flag;
  showRules?: ShowRule[];
  requiredRule?: RequiredRule;
  /** Code of the record entry that fills this item (case-record mapping). */
  code?: string;
  unit?: string;
  [extra: string]: unknown;
}

export interface FormContainer {
  key?: string;
  title?: string;
  type?: string;
  isHide?: Flag;
  groups?: FormElement[];
  panel?: FormElement[];
  matrixNew?: FormElement[];
  table?: FormElement[];
  topicGroup?: FormElement[];
  items?: FormElement[];
  [extra: string]: unknown;
}

export type FormElement = FormItem | FormContainer;
export type FormPage = FormContainer;

export interface Form {
  key?: string;
  title?: string;
  pages: FormPage[];
  showRules?: ShowRule[];
  [extra: string]: unknown;
}

export type Answers = Record<string, unknown>;

export type IssueCode =
  | 'required'
  | 'rowRequired'
  | 'minOptions'
  | 'maxOptions'
  | 'minValue'
  | 'maxValue'
  | 'minLength'
  | 'maxLength'
  | 'notNumber'
  | 'notDate'
  | 'unknownOption'
  | 'nationalIdFormat'
  | 'nationalIdProvince'
  | 'nationalIdCheckDigit';

export interface Issue {
  key: string;
  /** Page number the user sees (1-based). */
  page: number;
  /** Question number the user sees on that page (1-based; paragraphs carry none). */
  question: number;
  /** Message in Chinese, naming page and question. */
  message: string;
  /** The same message in English. */
  messageEn: string;
  code: IssueCode;
  /** Dotted path for API clients: key, then blank, row and cell keys. */
  path: string;
  /** The newer validator's wording: '{path} is required', 'at least N items'. */
  pathMessage: string;
  severity: 'error' | 'warning';
  blank?: number;
  row?: number;
  column?: number;
  limit?: number;
}

export type ProblemCode =
  | 'unknownKey'
  | 'duplicateKey'
  | 'unknownCondition'
  | 'unknownFunction'
  | 'cycle'
  | 'conditionNotApplicable'
  | 'minExceedsMax'
  | 'noItems';

/**
 * What exactly is wrong, under the problem's code: the screen words a problem by
 * `detail ?? code` with its `params`, in the reader's language (`message` is the English text for
 * logs and API readers).
 */
export type ProblemDetail =
  | 'indicatorUnknown'
  | 'targetUnknown'
  | 'fieldUnknown'
  | 'kindMismatch'
  | 'noOrder'
  | 'notNumber'
  | 'notDate'
  | 'notOption'
  | 'valueRange'
  | 'lengthRange'
  | 'choiceRange';

export interface Problem {
  code: ProblemCode;
  detail?: ProblemDetail;
  /** Where in the form: item key, or rule location. */
  at: string;
  message: string;
  keys?: string[];
  /** The words the message needs: item keys, the condition, the value, the bounds. */
  params?: Record<string, string | number>;
}
