export * from './age.js';
export * from './code-tables.js';
export * from './control-chars.js';
export * from './format.js';
export * from './greeting.js';
export * from './national-id.js';
export * from './palettes.js';
export * from './text.js';
