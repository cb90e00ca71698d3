export * from './admin.js';
export * from './pim.js';
export * from './connector.js';
export * from './imports.js';
