// A connector's label (docs/api.md §10: an arrow's text follows the middle of its path; an elbow's,
// the middle of its longest straight run, `labelPoint`), laid out
// once for the canvas and the export alike: centred lines on a white halo, so the line behind it
// does not cross the words.
import type { ShapeRecord } from '../index.ts';
import { type ConnectorPath, labelPoint } from './connectors.ts';
import { fontStacks } from './fonts.ts';
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
