export * from './api.ts';
export * from './boardJson.ts';
export * from './errors.ts';
export * from './events.ts';
export * from './ids.ts';
export * from './limits.ts';
export * from './presence.ts';
export * from './shapes.ts';
