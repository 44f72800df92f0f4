export * from './cohort/index.js';
export * from './constants.js';
export * from './helpers/index.js';
export * from './messages.js';
export * from './multicenter/index.js';
export * from './password.js';
export * from './routes/index.js';
export * from './site.js';
