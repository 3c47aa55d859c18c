// The breakpoints scripts test, the same numbers as the stylesheets' (named in styles.css).

/** --bp-phone: tools at the bottom, the touch layout. */
export const PHONE_QUERY = '(max-width: 760px)';
/** The touch layout: a phone-wide window, or a finger for a pointer. */
export const TOUCH_QUERY = `(pointer: coarse), ${PHONE_QUERY}`;
