// Whether the person is on a touch screen or a phone-sized window, where hints speak of taps and
// buttons rather than keys.
import { useSyncExternalStore } from 'react';
import { PHONE_QUERY, TOUCH_QUERY } from '../../breakpoints.ts';

const mediaOf = (query: string) => () =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(query) : null;
const media = mediaOf(TOUCH_QUERY);
const phoneMedia = mediaOf(PHONE_QUERY);

/** True now (for code outside React, such as a callback's message). */
export const touchLayout = (): boolean => media()?.matches ?? false;
const phoneLayout = (): boolean => phoneMedia()?.matches ?? false;

/** Whether a media query matches now; re-renders when that changes (a rotated tablet). */
function useMedia(m: () => MediaQueryList | null, matches: () => boolean): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = m();
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    matches,
    () => false,
  );
}

/** True while the layout is touch or phone-sized. */
export const useTouchLayout = (): boolean => useMedia(media, touchLayout);

/** True while the window is phone-sized (--bp-phone), where panels lay out in rows at the bottom. */
export const usePhoneLayout = (): boolean => useMedia(phoneMedia, phoneLayout);
