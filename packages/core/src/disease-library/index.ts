export * from './rule-builder.js';
export * from './rule-labels.js';
export * from './template.js';
