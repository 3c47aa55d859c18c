// Moved to shared (docs/api.md §16: one renderer for the client's export and the server's images).
export * from '@tandem/shared/render/connectors.ts';
