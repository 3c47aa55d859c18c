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
