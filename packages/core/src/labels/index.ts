export * from './audit-actions.js';
export * from './audit-entities.js';
export * from './cdr.js';
export * from './crf-chart.js';
export * from './families.js';
export * from './label.js';
export * from './reference.js';
export * from './types.js';
