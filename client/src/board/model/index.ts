// The board model: pure functions over a Y.Doc, tested in Node without a browser.
export * from './clipboard.ts';
export * from './connectors.ts';
export * from './describe.ts';
export * from './doc.ts';
export * from './geometry.ts';
export * from './hit.ts';
export * from './layout.ts';
export * from './order.ts';
export * from './read.ts';
export * from './shapes.ts';
