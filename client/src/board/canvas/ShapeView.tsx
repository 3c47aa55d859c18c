// Renders one shape record. Memoised on the record object, which the ShapeIndex keeps stable
// while the shape is unchanged, so panning and remote edits elsewhere do not re-render it.
import type { ShapeRecord } from '@tandem/shared';
import { createElement, memo } from 'react';
import { arrowDrawing, bodyOf, opacityAttrs } from '../drawing/body.ts';
import { fontStacks } from '../drawing/fonts.ts';
import { CANVAS_BACKGROUND, connectorLabel, labelAttrs, textHalo } from '../drawing/label.ts';
import type { Primitive } from '../drawing/primitives.ts';
import { ImageBody } from '../images/ImageView.tsx';
import { type ConnectorPath, connectorPath } from '../model/connectors.ts';
import { shapeLabel } from '../model/describe.ts';
import type { Point } from '../model/geometry.ts';
import { linePositions } from '../model/textLayout.ts';
import { layoutOf } from './measure.ts';
import { textColorOf } from './svgExport.ts';

export function diamondPoints(w: number, h: number): string {
  return `${w / 2},0 ${w},${h / 2} ${w / 2},${h} 0,${h / 2}`;
}

/** Primitives (drawing/primitives.ts) as React elements: the same list the export writes out. */
function Parts({ parts, className }: { parts: readonly Primitive[]; className?: string }) {
  return parts.map((p, i) => createElement(p.tag, { key: i, className, ...p.attrs }));
}

function Body({ s, detail }: { s: ShapeRecord; detail: boolean }) {
  switch (s.type) {
    case 'sticky':
      // The shadow is an offset translucent rect, not a blur filter: with thousands of notes a
      // blurred drop-shadow is re-rasterised on every pan frame (docs/benchmarks-client.md).
      return (
        <>
          {detail && <rect className="sticky-shadow" x={1} y={3} width={s.w} height={s.h} rx={7} />}
          <Parts parts={bodyOf(s, detail)} className="sticky" />
        </>
      );
    case 'text':
      return <rect width={s.w} height={s.h} fill="transparent" />;
    case 'image':
      return <ImageBody s={s} />;
    case 'frame':
      // A named area (docs/api.md §14): a light backdrop and a border. Its name is drawn above
      // every shape, by the canvas (FrameTitles).
      return <rect className="frame" width={s.w} height={s.h} rx={4} />;
    default:
      return <Parts parts={bodyOf(s, detail)} />;
  }
}

function Label({ s, hidden }: { s: ShapeRecord; hidden: boolean }) {
  if (s.text === undefined || hidden || s.text === '') return null;
  // Laid out by the shared text layout, the same one the export uses: the font shrinks to a floor
  // to fit, and every line is drawn (past the floor the note has grown to hold them).
  const l = layoutOf(s);
  const pos = linePositions(s, l);
  return (
    // Hidden: the shape's name already says its words, and Chromium reads an SVG image's text
    // too, so without this the note was heard twice ("Sticky note: Ship it", "Ship it").
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <text> is not focusable; biome takes it for a custom element
    <text
      aria-hidden="true"
      className="shape-text"
      fontFamily={fontStacks[s.fontFamily ?? 'sans']}
      fontSize={l.size}
      fill={textColorOf(s)}
      textAnchor={anchor[l.align]}
      data-font-size={l.size}
      // On a hatched fill, a halo in the canvas colour under the glyphs (the export draws the same).
      {...textHalo(s, l.size, CANVAS_BACKGROUND)}
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

const noShapes: ReadonlyMap<string, ShapeRecord> = new Map();

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
  // Only an arrow's name reads other shapes, so every other shape names itself from its record.
  const label = shapeLabel(s, noShapes);
  const transform = `translate(${s.x} ${s.y})${s.rotation ? ` rotate(${(s.rotation * 180) / Math.PI} ${s.w / 2} ${s.h / 2})` : ''}`;
  return (
    // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: an SVG <g> is not interactive; biome takes it for a custom element
    <g
      transform={transform}
      data-shape-id={s.id}
      data-shape-type={s.type}
      data-locked={s.locked ? 'true' : undefined}
      data-group-id={s.groupId}
      // One named image per shape (docs/api.md §11): a screen reader says "Sticky note: Ship it"
      // once, instead of the note's lines of text, its hatching and its shadow one by one.
      role="img"
      aria-label={label}
      {...opacityAttrs(s)}
    >
      <Body s={s} detail={detail} />
      <Label s={s} hidden={editing || !detail} />
    </g>
  );
});

export const ArrowView = memo(
  function ArrowView({
    s,
    path,
    label,
    editing,
    detail,
  }: {
    s: ShapeRecord;
    path: ConnectorPath;
    /** Its accessible name, which names the shapes it joins ("Arrow from Start to End"). */
    label: string;
    editing: boolean;
    detail: boolean;
  }) {
    const { group, parts } = arrowDrawing(s, path, detail);
    return (
      // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: an SVG <g> is not interactive; biome takes it for a custom element
      <g
        data-shape-id={s.id}
        data-shape-type="arrow"
        data-route={path.route}
        role="img"
        aria-label={label}
        {...group}
      >
        <Parts parts={parts} />
        <ArrowLabel s={s} path={path} editing={editing} />
      </g>
    );
  },
  // The path is resolved afresh on every canvas render, so compare it by value: an arrow whose
  // record and route are unchanged (every arrow, while panning) is not re-rendered.
  (a, b) =>
    a.s === b.s &&
    a.label === b.label &&
    a.editing === b.editing &&
    a.detail === b.detail &&
    samePoints(a.path.points, b.path.points),
);

function ArrowLabel({ s, path, editing }: { s: ShapeRecord; path: ConnectorPath; editing: boolean }) {
  const l = connectorLabel(s, path);
  if (!l || editing) return null;
  return (
    // Hidden, as a shape's text is: the arrow's name ends with its label.
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <text> is not focusable; biome takes it for a custom element
    <text className="arrow-label" aria-hidden="true" {...labelAttrs(l)}>
      {l.lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
        <tspan key={i} x={l.x} y={l.ys[i]}>
          {line || '\u00a0'}
        </tspan>
      ))}
    </text>
  );
}

function samePoints(a: Point[], b: Point[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.x !== b[i]!.x || a[i]!.y !== b[i]!.y) return false;
  return true;
}

/** An arrow's drawn path against current shapes (new points each call; ArrowView compares them by value). */
export function resolveArrow(s: ShapeRecord, byId: Map<string, ShapeRecord>): ConnectorPath {
  return connectorPath(s, byId);
}

/** The two ends of an arrow as drawn (the end handles sit on them). */
export function arrowEndsOf(path: ConnectorPath): [Point, Point] {
  return [path.points[0]!, path.points[path.points.length - 1]!];
}
