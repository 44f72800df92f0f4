export * from './admin.js';
export * from './audit.js';
export * from './auth.js';
export * from './common.js';
export * from './multicenter.js';
export * from './system.js';
export * from './visualization.js';
