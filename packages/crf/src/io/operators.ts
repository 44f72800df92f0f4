/** Comparison operators of REDCap branching logic and ODM conditions, as show-rule conditions. */
export const OPS: Record<string, string> = {
  '=': 'equals',
  '<>': 'notEquals',
  '!=': 'notEquals',
  '>': 'greaterThan',
  '<': 'lessThan',
  '>=': 'greaterOrEqual',
  '<=': 'lessOrEqual',
};
