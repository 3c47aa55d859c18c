// Whether the person is on a touch screen or a phone-sized window, where hints speak of taps and
// buttons rather than keys.
import { useSyncExternalStore } from 'react';
import { PHONE_QUERY, TOUCH_QUERY } from '../../breakpoints.ts';

const mediaOf = (query: string) => () =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(query) : null;
const media = mediaOf(TOUCH_QUERY);

/** True now (for code outside React, such as a callback's message). */
export const touchLayout = (): boolean => media()?.matches ?? false;

/** True while the layout is touch or phone-sized; re-renders when that changes (a rotated tablet). */
export function useTouchLayout(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const m = media();
      m?.addEventListener('change', onChange);
      return () => m?.removeEventListener('change', onChange);
    },
    touchLayout,
    () => false,
  );
}

const phoneMedia = mediaOf(PHONE_QUERY);
const phoneLayout = (): boolean => phoneMedia()?.matches ?? false;

/** True while the window is phone-sized (--bp-phone), where panels lay out in rows at the bottom. */
export function usePhoneLayout(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const m = phoneMedia();
      m?.addEventListener('change', onChange);
      return () => m?.removeEventListener('change', onChange);
    },
    phoneLayout,
    () => false,
  );
}
