export * from './audit-actions.js';
export * from './audit-entities.js';
export * from './families.js';
export * from './label.js';
export * from './types.js';
