export * from './admin.js';
export * from './pim.js';
