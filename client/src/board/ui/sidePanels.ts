// The Comments and History panels take the same place at the right of the screen, and on a phone
// every side panel (Pages too) takes the whole width under the top bar. Opening one closes those
// it would cover: otherwise the one opened last hid the other while that one's button still said
// it was open, and pressing that button closed a panel nobody could see.
import { useEffect } from 'react';
import { PHONE_QUERY } from '../../breakpoints.ts';
import { useHistoryPanel } from '../history/state.ts';
import { usePagesPanel } from '../pages/state.ts';
import { useEditor } from '../store.ts';
import { canTakeFocus } from './focusable.ts';

export type Panel = 'comments' | 'history' | 'pages';

/** The ids of the top-bar buttons that open each panel: closing a panel gives focus back to its. */
export const panelButtonId: Record<Panel, string> = {
  comments: 'comments-panel-button',
  history: 'history-panel-button',
  pages: 'pages-panel-button',
};

/**
 * The element a panel was opened from by a shortcut (the canvas, by Ctrl+Alt+H): closing the
 * panel gives focus back there, not to its top-bar button, which the person never was on.
 */
const openedFrom: Partial<Record<Panel, HTMLElement | SVGElement>> = {};

/** Notes where focus is as a panel opens: `null` (opened by its button) forgets any. */
export function rememberOpener(panel: Panel, from: Element | null): void {
  if (canTakeFocus(from)) openedFrom[panel] = from;
  else delete openedFrom[panel];
}

/** Focus back to where the panel was opened from: its shortcut's element, else its button. */
export function focusOpener(panel: Panel): void {
  const from = openedFrom[panel];
  delete openedFrom[panel];
  (canTakeFocus(from) ? from : document.getElementById(panelButtonId[panel]))?.focus();
}

function closeCovered(opened: Panel): void {
  const phone = window.matchMedia(PHONE_QUERY).matches;
  // Pages sits at the left on a wider screen, beside either of the others.
  const covers = (other: Panel) => other !== opened && (phone || (opened !== 'pages' && other !== 'pages'));
  if (covers('comments') && useEditor.getState().commentsPanel) useEditor.getState().setCommentsPanel(false);
  if (covers('history') && useHistoryPanel.getState().open) useHistoryPanel.getState().close();
  if (covers('pages') && usePagesPanel.getState().open) usePagesPanel.getState().close();
}

/** While the editor is shown, a side panel that opens closes the ones it would cover. */
export function useOneSidePanel(): void {
  useEffect(() => {
    const offs = [
      useEditor.subscribe((s, before) => {
        if (s.commentsPanel && !before.commentsPanel) closeCovered('comments');
      }),
      useHistoryPanel.subscribe((s, before) => {
        if (s.open && !before.open) closeCovered('history');
      }),
      usePagesPanel.subscribe((s, before) => {
        if (s.open && !before.open) closeCovered('pages');
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, []);
}
