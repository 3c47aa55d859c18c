// Board ids and tokens: URL-safe base64 alphabet and fixed lengths, so anything else is a 404
// before it reaches the store.

/** 21 characters of base64url carry 126 bits (docs/api.md §3: ≥ 120). */
export const BOARD_ID_LENGTH = 21;
/** 32 characters of base64url carry 192 bits (docs/api.md §3: ≥ 128). */
export const LINK_TOKEN_LENGTH = 32;

export const boardIdPattern = new RegExp(`^[A-Za-z0-9_-]{${BOARD_ID_LENGTH}}$`);
export const linkTokenPattern = new RegExp(`^[A-Za-z0-9_-]{${LINK_TOKEN_LENGTH}}$`);
export const userIdPattern = /^[A-Za-z0-9_-]{16,64}$/;

export const isBoardId = (s: string): boolean => boardIdPattern.test(s);
export const isLinkToken = (s: string): boolean => linkTokenPattern.test(s);

const SHAPE_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const SHAPE_ID_LENGTH = 16;
/** Random bytes drawn once for many ids: one crypto call per id was 10 % of a 10-shape API write. */
const idPool = new Uint8Array(SHAPE_ID_LENGTH * 256);
let idPoolUsed = idPool.length;

/**
 * A random URL-safe shape id (16 characters, 96 bits), made the same way by the browser and by the
 * server (the content API): unique, not secret, so bytes are drawn from crypto in batches.
 */
export function newShapeId(): string {
  if (idPoolUsed + SHAPE_ID_LENGTH > idPool.length) {
    globalThis.crypto.getRandomValues(idPool);
    idPoolUsed = 0;
  }
  let id = '';
  for (let i = 0; i < SHAPE_ID_LENGTH; i++) id += SHAPE_ID_ALPHABET[(idPool[idPoolUsed++] as number) & 63];
  return id;
}
