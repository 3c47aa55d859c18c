// A connector's label (docs/api.md §10: an arrow's text follows the middle of its path; an
// elbow's, the middle of its longest straight run, `labelPoint`), laid out once for the canvas and
// the export alike: centred lines on a white halo, so the line behind it does not cross the words.
import type { ShapeRecord } from '../index.ts';
import { type ConnectorPath, labelPoint } from './connectors.ts';
import { fontStacks } from './fonts.ts';
import type { Attrs } from './primitives.ts';
import { resolveStyle } from './style.ts';
import { baseFontSize, LINE_HEIGHT } from './textLayout.ts';

export interface ConnectorLabel {
  x: number;
  /** Baseline-centre y of each line. */
  ys: number[];
  lines: string[];
  size: number;
  font: string;
}

export function connectorLabel(s: ShapeRecord, path: ConnectorPath): ConnectorLabel | null {
  if (!s.text) return null;
  const m = labelPoint(path);
  // The size free text has, as in the editor the label is typed in.
  const size = baseFontSize({ type: 'text', fontSize: s.fontSize });
  const lh = size * LINE_HEIGHT;
  const lines = s.text.split('\n');
  const first = m.y - ((lines.length - 1) * lh) / 2;
  return {
    x: m.x,
    ys: lines.map((_, i) => first + i * lh),
    lines,
    size,
    font: fontStacks[s.fontFamily ?? 'sans'],
  };
}

/** Attributes of the label's <text> (React names; the export turns them into SVG's). */
export const labelAttrs = (l: ConnectorLabel) => ({
  fontFamily: l.font,
  fontSize: l.size,
  fill: '#1f2328',
  stroke: '#ffffff',
  strokeWidth: 5,
  strokeLinejoin: 'round' as const,
  paintOrder: 'stroke',
  textAnchor: 'middle' as const,
  dominantBaseline: 'central' as const,
});

/** The board's background behind the canvas (editor.css `.editor`) and behind an export (svg.ts). */
export const CANVAS_BACKGROUND = '#fbfbfc';
export const EXPORT_BACKGROUND = '#ffffff';

/**
 * A backing for a shape's text where its fill is hatched or cross-hatched: a halo in the
 * background colour painted under the glyphs (paint-order stroke), so the hatch lines stop short of
 * the letters and the words stay readable, as Excalidraw keeps text legible on a busy fill. A
 * solid or empty fill already reads cleanly and gets none. `background` is what shows between the
 * hatch lines: the canvas's or the export's. React names; the export writes them as SVG's.
 */
export function textHalo(s: ShapeRecord, size: number, background: string): Attrs {
  const st = resolveStyle(s);
  const hatched = (st.fillStyle === 'hatched' || st.fillStyle === 'cross-hatched') && st.fill !== 'none';
  if (!hatched || s.type === 'text' || s.type === 'arrow') return {};
  return {
    stroke: background,
    strokeWidth: Math.max(3, Math.round(size * 0.35 * 10) / 10),
    strokeLinejoin: 'round',
    paintOrder: 'stroke',
  };
}
