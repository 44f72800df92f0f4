export * from './admin.js';
export * from './identity.js';
export * from './system.js';
