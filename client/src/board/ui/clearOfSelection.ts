// The selection's floating panels (the style panel down the left, the align bar across the top)
// and the facilitation bar (top right) step aside when the selection's box on screen lies under
// them, as Miro's context toolbar does: a user trial selected a note at the left edge of the
// screen and the style panel hid it, so the colour picked could not be seen. Each panel has a
// home (its place in editor.css) and one place aside; it goes aside only when the selection is
// under it at home and less under it aside.
import type { ShapeRecord } from '@tandem/shared';
import { type CSSProperties, type RefObject, useLayoutEffect, useMemo, useState } from 'react';
import { boundsOf, type Rect, unionRect } from '../model/geometry.ts';
import { marginsRect, useEditor, type Viewport } from '../store.ts';

/** Screen pixels between a panel aside and the edge, or what it keeps clear of. */
const GAP = 12;
/** The align bar aside stands this far above the bottom edge: 8 px over the zoom and status bars. */
const ARRANGE_AWAY_BOTTOM = 66;

export const overlapArea = (a: Rect, b: Rect): number =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

/** Whether a panel at `home` should stand at `away` instead, clear of `selection` (screen boxes). */
export function stepAside(home: Rect, away: Rect, selection: Rect | null): boolean {
  if (!selection) return false;
  const atHome = overlapArea(home, selection);
  return atHome > 0 && overlapArea(away, selection) < atHome;
}

/** The selection's box on screen, relative to the board area (the canvas's screen coordinates). */
export function selectionOnScreen(
  recs: ShapeRecord[],
  v: Viewport,
  screen: { w: number; h: number },
): Rect | null {
  return boxOnScreen(unionRect(recs.map(boundsOf)), v, screen);
}

/** A box in board units on screen, relative to the board area. */
function boxOnScreen(box: Rect | null, v: Viewport, screen: { w: number; h: number }): Rect | null {
  if (!box) return null;
  return {
    x: (box.x - v.x) * v.zoom + screen.w / 2,
    y: (box.y - v.y) * v.zoom + screen.h / 2,
    w: box.w * v.zoom,
    h: box.h * v.zoom,
  };
}

/** A panel's two places, in the board area's pixels, and the inline style that puts it aside. */
export interface Places {
  home: Rect;
  away: Rect;
  aside: CSSProperties;
}

/** A CSS length in px read from a custom property editor.css sets on the panel (its home). */
const pxProperty = (el: HTMLElement, name: string, fallback: number): number => {
  const n = Number.parseFloat(getComputedStyle(el).getPropertyValue(name));
  return Number.isFinite(n) ? n : fallback;
};

/** `el`'s box relative to its parent (the board area), transforms included. */
const boxIn = (el: Element, parent: Element): Rect => {
  const r = el.getBoundingClientRect();
  const p = parent.getBoundingClientRect();
  return { x: r.left - p.left, y: r.top - p.top, w: r.width, h: r.height };
};

/**
 * The style panel: home at the left (`--home-left`), centred vertically; aside at the right edge,
 * left of an open side panel (Comments, History) when that would cover it there.
 */
export function stylePanelPlaces(el: HTMLElement, area: { w: number; h: number }): Places {
  const w = el.offsetWidth;
  const h = el.offsetHeight;
  const y = (area.h - h) / 2;
  let awayX = area.w - GAP - w;
  const parent = el.parentElement;
  for (const side of parent?.querySelectorAll('.side-panel') ?? []) {
    const r = boxIn(side, parent as Element);
    if (r.w > 0 && overlapArea(r, { x: awayX, y, w, h }) > 0) awayX = Math.min(awayX, r.x - GAP - w);
  }
  const home = { x: pxProperty(el, '--home-left', GAP), y, w, h };
  return { home, away: { x: awayX, y, w, h }, aside: { left: awayX } };
}

/** The align bar: home across the top (`--home-top`); aside at the bottom, above the zoom bar. */
export function arrangeBarPlaces(el: HTMLElement, area: { w: number; h: number }): Places {
  const parent = el.parentElement as Element;
  const { x, w, h } = boxIn(el, parent);
  const awayY = area.h - ARRANGE_AWAY_BOTTOM - h;
  return {
    home: { x, y: pxProperty(el, '--home-top', 64), w, h },
    away: { x, y: awayY, w, h },
    aside: { top: awayY },
  };
}

/**
 * The facilitation bar: home at the top right (`--home-top`); aside at the bottom right, a row
 * above the align bar's place aside (which it would meet at laptop widths, as at home) and above
 * the minimap when that is open.
 */
export function facilitationBarPlaces(el: HTMLElement, area: { w: number; h: number }): Places {
  const w = el.offsetWidth;
  const h = el.offsetHeight;
  const x = area.w - GAP - w;
  let awayY = area.h - ARRANGE_AWAY_BOTTOM - 2 * h - GAP;
  const parent = el.parentElement;
  const minimap = parent?.querySelector('.minimap');
  if (minimap) {
    const r = boxIn(minimap, parent as Element);
    if (r.w > 0 && overlapArea(r, { x, y: awayY, w, h }) > 0) awayY = r.y - GAP - h;
  }
  return {
    home: { x, y: pxProperty(el, '--home-top', 64), w, h },
    away: { x, y: awayY, w, h },
    aside: { top: awayY },
  };
}

/**
 * The inline style that puts the panel in `ref` aside while the selection `recs` lies under it at
 * home, or undefined. Follows pans, zooms and resizes without re-rendering the panel unless its
 * place changes. Off (`enabled` false) on a phone, where the panels are docked sheets.
 */
export function useClearOfSelection(
  ref: RefObject<HTMLElement | null>,
  recs: ShapeRecord[],
  places: (el: HTMLElement, area: { w: number; h: number }) => Places,
  enabled: boolean,
): CSSProperties | undefined {
  const [aside, setAside] = useState<CSSProperties | undefined>(undefined);
  // The effect depends on the selection's box, by value: `recs` is a new array at every render
  // of the panel (useSelectedRecords), and the effect, keyed on it, unsubscribed and subscribed
  // again each time. A move of the selection changes the box, so the panel still follows it.
  const key = JSON.stringify(unionRect(recs.map(boundsOf)));
  const box = useMemo(() => JSON.parse(key) as Rect | null, [key]);
  useLayoutEffect(() => {
    if (!enabled || !box) {
      setAside(undefined);
      return;
    }
    let seen: { viewport: Viewport; screen: { w: number; h: number } } | null = null;
    const update = () => {
      const { viewport, screen } = useEditor.getState();
      if (seen && seen.viewport === viewport && seen.screen === screen) return;
      seen = { viewport, screen };
      const el = ref.current;
      if (!el) return;
      const p = places(el, screen);
      const next = stepAside(p.home, p.away, boxOnScreen(box, viewport, screen)) ? p.aside : undefined;
      setAside((prev) => (JSON.stringify(prev) === JSON.stringify(next) ? prev : next));
    };
    update();
    return useEditor.subscribe(update);
  }, [ref, box, places, enabled]);
  return aside;
}

/** A panel docked at one side of the board area: what is under it is out of sight from that side in. */
export interface Docked {
  box: Rect;
  side: 'left' | 'right' | 'top';
}

/** Narrower or shorter than this, the room left between the panels is no place to show a match. */
const LEAST_CLEAR = 120;

/**
 * The part of `within` (screen pixels, e.g. the screen less fitRect's margins) that the docked
 * panels leave uncovered, `GAP` away from each; `within` itself when the panels leave too little
 * room (a small window with both side panels open).
 */
export function uncovered(within: Rect, panels: readonly Docked[]): Rect {
  let left = within.x;
  let right = within.x + within.w;
  let top = within.y;
  const bottom = within.y + within.h;
  for (const { box, side } of panels) {
    if (box.w <= 0 || box.h <= 0) continue;
    if (side === 'left') left = Math.max(left, box.x + box.w + GAP);
    else if (side === 'right') right = Math.min(right, box.x - GAP);
    else top = Math.max(top, box.y + box.h + GAP);
  }
  return right - left < LEAST_CLEAR || bottom - top < LEAST_CLEAR
    ? within
    : { x: left, y: top, w: right - left, h: bottom - top };
}

/**
 * The panels docked at the sides of the board area `area` now, in its pixels: the Pages panel,
 * the tools when they stand in a column and the style panel at its home (left); the Comments or
 * History panel (right); the Find bar (top, below the bars fitRect's margins keep clear of).
 */
export function dockedPanels(
  area: HTMLElement,
  screen: { w: number; h: number },
  withStylePanel = true,
): Docked[] {
  const out: Docked[] = [];
  const each = (selector: string, f: (el: HTMLElement) => Docked | null) => {
    for (const el of area.querySelectorAll<HTMLElement>(selector)) {
      const d = el.offsetWidth > 0 ? f(el) : null;
      if (d) out.push(d);
    }
  };
  each('.pages-panel', (el) => ({ box: boxIn(el, area), side: 'left' }));
  each('.toolbar', (el) =>
    el.offsetHeight > el.offsetWidth ? { box: boxIn(el, area), side: 'left' } : null,
  );
  // At home, not where it stands now: it steps aside only while the selection is under its home.
  if (withStylePanel)
    each('.style-panel', (el) => ({ box: stylePanelPlaces(el, screen).home, side: 'left' }));
  each('.side-panel', (el) => ({ box: boxIn(el, area), side: 'right' }));
  each('.find-bar', (el) => ({ box: boxIn(el, area), side: 'top' }));
  return out;
}

/**
 * The part of the board area that fitRect's margins and the panels docked now leave uncovered
 * (screen pixels): where Zoom to fit, Zoom to selection, a frame gone to and Find's match are
 * centred, so an open Pages or Comments panel does not cover what was brought into view (a
 * trial's frame title sat under the Pages panel). The style panel counts for Find only, which
 * shows one small match it has just selected; a fitted selection keeps the whole width, and the
 * style panel steps aside from it (useClearOfSelection). Outside an editor, the margins alone.
 */
export function uncoveredNow(
  screen: { w: number; h: number },
  area: HTMLElement | null = typeof document === 'undefined' ? null : document.querySelector('.editor'),
  withStylePanel = false,
): Rect {
  const margins = marginsRect(screen);
  return area ? uncovered(margins, dockedPanels(area, screen, withStylePanel)) : margins;
}
