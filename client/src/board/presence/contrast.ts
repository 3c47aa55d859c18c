// Presence colours that stay visible on every surface: people's colours are the same
// eight as the notes', so a yellow cursor on a yellow note would vanish. Each presence mark gets an
// outline chosen by contrast against every surface it can cross. Pure, tested in Node.
import { colors } from '@tandem/shared';

/** What a cursor or selection can be drawn over: every note colour, the canvas and white. */
export const presenceSurfaces: readonly string[] = [...Object.values(colors), '#f7f7f8', '#ffffff'];

/** The outline candidates: the app's ink and white. */
const outlines = ['#1f2328', '#ffffff'] as const;

/** Visible enough for a graphical mark (WCAG 2's 3:1 for non-text contrast). */
export const MARK_CONTRAST = 3;

function channel(v: number): number {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance (WCAG 2) of a #rrggbb colour; anything else counts as black. */
export function luminance(hex: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return 0;
  const n = Number.parseInt(m[1]!, 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** The WCAG contrast ratio of two colours, 1 (none) to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The outline for a presence mark of `color`: of ink and white, the one whose worst contrast
 * against the surfaces where `color` alone is too faint is best. A colour visible everywhere
 * still gets an outline (the darker ink), so every mark looks the same.
 */
export function presenceOutline(color: string, surfaces: readonly string[] = presenceSurfaces): string {
  const faint = surfaces.filter((s) => contrastRatio(color, s) < MARK_CONTRAST);
  const against = faint.length > 0 ? faint : surfaces;
  let best: string = outlines[0];
  let bestWorst = -1;
  for (const o of outlines) {
    const worst = Math.min(...against.map((s) => contrastRatio(o, s)));
    if (worst > bestWorst) {
      best = o;
      bestWorst = worst;
    }
  }
  return best;
}

/** True when a mark of `color` with its outline stands out from `surface`. */
export const visibleOn = (color: string, surface: string): boolean =>
  Math.max(contrastRatio(color, surface), contrastRatio(presenceOutline(color), surface)) >= MARK_CONTRAST;
