export * from './audit.js';
export * from './common.js';
