export * from './audit.js';
export * from './common.js';
export * from './multicenter.js';
export * from './visualization.js';
