export * from './admin.js';
export * from './identity.js';
export * from './system.js';
export * from './clinical.js';
export * from './jobs.js';
export * from './crf.js';
export * from './research.js';
export * from './visualization.js';
