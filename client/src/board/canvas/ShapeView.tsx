// Renders one shape record. Memoised on the record object, which the ShapeIndex keeps stable
// while the shape is unchanged, so panning and remote edits elsewhere do not re-render it.
import type { ShapeRecord } from '@tandem/shared';
import { memo } from 'react';
import { ImageBody } from '../images/ImageView.tsx';
import { arrowEnds, type Point } from '../model/geometry.ts';
import { linePositions } from '../model/textLayout.ts';
import { cachedStrokePath } from './freehand.ts';
import { layoutOf } from './measure.ts';
import { fill, ink, tint } from './palette.ts';

export function diamondPoints(w: number, h: number): string {
  return `${w / 2},0 ${w},${h / 2} ${w / 2},${h} 0,${h / 2}`;
}

function Body({ s, detail }: { s: ShapeRecord; detail: boolean }) {
  switch (s.type) {
    case 'sticky':
      // The shadow is an offset translucent rect, not a blur filter: with thousands of notes a
      // blurred drop-shadow is re-rasterised on every pan frame (docs/benchmarks-client.md).
      return (
        <>
          {detail && <rect className="sticky-shadow" x={1} y={3} width={s.w} height={s.h} rx={7} />}
          <rect className="sticky" width={s.w} height={s.h} rx={6} fill={fill[s.color]} />
        </>
      );
    case 'rect':
      return (
        <rect width={s.w} height={s.h} rx={8} fill={tint(s.color)} stroke={ink[s.color]} strokeWidth={2} />
      );
    case 'ellipse':
      return (
        <ellipse
          cx={s.w / 2}
          cy={s.h / 2}
          rx={s.w / 2}
          ry={s.h / 2}
          fill={tint(s.color)}
          stroke={ink[s.color]}
          strokeWidth={2}
        />
      );
    case 'diamond':
      return (
        <polygon
          points={diamondPoints(s.w, s.h)}
          fill={tint(s.color)}
          stroke={ink[s.color]}
          strokeWidth={2}
          strokeLinejoin="round"
        />
      );
    case 'text':
      return <rect width={s.w} height={s.h} fill="transparent" />;
    case 'freehand':
      return <path d={cachedStrokePath(s.points ?? [])} fill={ink[s.color]} />;
    case 'image':
      return <ImageBody s={s} />;
    case 'frame':
      // A named area (SPEC §14): a light backdrop and a border, its name above it.
      return (
        <>
          <rect className="frame" width={s.w} height={s.h} rx={4} />
          <text className="frame-name" x={0} y={-10}>
            {s.name || 'Frame'}
          </text>
        </>
      );
    default:
      return null;
  }
}

function Label({ s, hidden }: { s: ShapeRecord; hidden: boolean }) {
  if (s.text === undefined || hidden || s.text === '') return null;
  // Laid out by the shared text layout, the same one the export uses: the font shrinks to a floor
  // to fit, and every line is drawn (past the floor the note has grown to hold them).
  const l = layoutOf(s);
  const pos = linePositions(s, l);
  return (
    <text
      className="shape-text"
      fontSize={l.size}
      fill={s.type === 'text' ? ink[s.color] : '#1f2328'}
      textAnchor={anchor[l.align]}
      data-font-size={l.size}
    >
      {l.lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
        <tspan key={i} x={pos.x} y={pos.y(i)}>
          {line || '\u00a0'}
        </tspan>
      ))}
    </text>
  );
}

export const anchor = { start: 'start', middle: 'middle', end: 'end' } as const;

/** `detail` is off when zoomed far out: text would be unreadable and filters cost the most there. */
export const ShapeView = memo(function ShapeView({
  s,
  editing,
  detail,
}: {
  s: ShapeRecord;
  editing: boolean;
  detail: boolean;
}) {
  if (s.type === 'arrow') return null;
  const transform = `translate(${s.x} ${s.y})${s.rotation ? ` rotate(${(s.rotation * 180) / Math.PI} ${s.w / 2} ${s.h / 2})` : ''}`;
  return (
    <g transform={transform} data-shape-id={s.id} data-shape-type={s.type}>
      <Body s={s} detail={detail} />
      <Label s={s} hidden={editing || !detail} />
    </g>
  );
});

export const ArrowView = memo(
  function ArrowView({ s, from, to }: { s: ShapeRecord; from: Point; to: Point }) {
    const angle = Math.atan2(to.y - from.y, to.x - from.x);
    const head = 14;
    const p1 = { x: to.x - head * Math.cos(angle - 0.45), y: to.y - head * Math.sin(angle - 0.45) };
    const p2 = { x: to.x - head * Math.cos(angle + 0.45), y: to.y - head * Math.sin(angle + 0.45) };
    return (
      <g
        data-shape-id={s.id}
        data-shape-type="arrow"
        stroke={ink[s.color]}
        strokeWidth={2.5}
        strokeLinecap="round"
        strokeLinejoin="round"
        fill="none"
      >
        <line x1={from.x} y1={from.y} x2={to.x} y2={to.y} />
        <polyline points={`${p1.x},${p1.y} ${to.x},${to.y} ${p2.x},${p2.y}`} />
      </g>
    );
  },
  // The ends are resolved afresh on every canvas render, so compare them by value: an arrow
  // whose record and ends are unchanged (every arrow, while panning) is not re-rendered.
  (a, b) =>
    a.s === b.s && a.from.x === b.from.x && a.from.y === b.from.y && a.to.x === b.to.x && a.to.y === b.to.y,
);

/** Resolves an arrow's ends against current shapes (new points each call; ArrowView compares them by value). */
export function resolveArrow(s: ShapeRecord, byId: Map<string, ShapeRecord>): [Point, Point] {
  return arrowEnds(s, byId);
}
