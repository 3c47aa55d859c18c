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
import { arrowGeometry, dashArray, pointList, strokeWidthOf } from './strokes.ts';

export function diamondPoints(w: number, h: number): string {
  return `${w / 2},0 ${w},${h / 2} ${w / 2},${h} 0,${h / 2}`;
}

/** Outline stroke of a shape: its colour's ink, its width and dash style. */
function outlineProps(s: ShapeRecord) {
  const width = strokeWidthOf(s);
  const dash = dashArray(s.dash, width);
  return {
    stroke: ink[s.color],
    strokeWidth: width,
    ...(dash ? { strokeDasharray: dash, strokeLinecap: 'round' as const } : {}),
  };
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
      return <rect width={s.w} height={s.h} rx={8} fill={tint(s.color)} {...outlineProps(s)} />;
    case 'ellipse':
      return (
        <ellipse
          cx={s.w / 2}
          cy={s.h / 2}
          rx={s.w / 2}
          ry={s.h / 2}
          fill={tint(s.color)}
          {...outlineProps(s)}
        />
      );
    case 'diamond':
      return (
        <polygon
          points={diamondPoints(s.w, s.h)}
          fill={tint(s.color)}
          {...outlineProps(s)}
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
      // A named area (docs/api.md §14): a light backdrop and a border. Its name is drawn above
      // every shape, by the canvas (FrameTitles).
      return <rect className="frame" width={s.w} height={s.h} rx={4} />;
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
    <g
      transform={transform}
      data-shape-id={s.id}
      data-shape-type={s.type}
      data-locked={s.locked ? 'true' : undefined}
      data-group-id={s.groupId}
    >
      <Body s={s} detail={detail} />
      <Label s={s} hidden={editing || !detail} />
    </g>
  );
});

export const ArrowView = memo(
  function ArrowView({ s, from, to }: { s: ShapeRecord; from: Point; to: Point }) {
    const { line, heads } = arrowGeometry(s, from, to);
    const width = strokeWidthOf(s);
    const dash = dashArray(s.dash, width);
    const color = ink[s.color];
    return (
      <g
        data-shape-id={s.id}
        data-shape-type="arrow"
        stroke={color}
        strokeWidth={width}
        strokeLinecap="round"
        strokeLinejoin="round"
        fill="none"
      >
        <line
          x1={line[0].x}
          y1={line[0].y}
          x2={line[1].x}
          y2={line[1].y}
          {...(dash ? { strokeDasharray: dash } : {})}
        />
        {heads.map((h, i) =>
          h.kind === 'dot' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: at most two heads, by position
            <circle key={i} cx={h.c.x} cy={h.c.y} r={h.r} fill={color} />
          ) : h.kind === 'filled' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: at most two heads, by position
            <polygon key={i} points={pointList(h.points)} fill={color} />
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: at most two heads, by position
            <polyline key={i} points={pointList(h.points)} />
          ),
        )}
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
