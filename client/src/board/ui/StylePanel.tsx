// The selection's style (colour, text size and alignment, stroke width and dash, arrowheads) and
// its actions (order, duplicate, lock, delete). It renders the selected records and dispatches.
import {
  ArrowHead,
  type ColorName,
  colorNames,
  colors,
  type Dash,
  type FontSize,
  fontSizes,
  type ShapeRecord,
  strokeWidths,
  type TextAlign,
  textShapeTypes,
} from '@tandem/shared';
import { type ReactNode, useSyncExternalStore } from 'react';
import type { Actions } from '../actions.ts';
import { layoutOf } from '../canvas/measure.ts';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { strokeWidthOf } from '../canvas/strokes.ts';
import { styleKeysFor } from '../model/shapes.ts';
import { useEditor } from '../store.ts';
import { Icon } from './icons.tsx';
import { ToolButton } from './ToolButton.tsx';

/** The selected records, re-read when the selection or the board changes. */
export function useSelectedRecords(index: ShapeIndex): ShapeRecord[] {
  const selection = useEditor((s) => s.selection);
  const snap = useSyncExternalStore(index.subscribe, index.getSnapshot);
  return selection.map((id) => snap.byId.get(id)).filter((r): r is ShapeRecord => !!r);
}

/** The value every record shares, or null when they differ. */
function common<T>(recs: ShapeRecord[], get: (r: ShapeRecord) => T): T | null {
  const values = new Set(recs.map(get));
  return values.size === 1 ? ([...values][0] as T) : null;
}

const sizeLabels: Record<FontSize, string> = { s: 'S', m: 'M', l: 'L', xl: 'XL' };
const alignLabels: { value: TextAlign; label: string; icon: string }[] = [
  { value: 'start', label: 'Align text left', icon: 'textLeft' },
  { value: 'middle', label: 'Align text centre', icon: 'textCenter' },
  { value: 'end', label: 'Align text right', icon: 'textRight' },
];
const dashLabels: { value: Dash; label: string }[] = [
  { value: 'solid', label: 'Solid line' },
  { value: 'dashed', label: 'Dashed line' },
  { value: 'dotted', label: 'Dotted line' },
];
const headLabels: Record<ArrowHead, string> = {
  none: 'None',
  arrow: 'Arrow',
  triangle: 'Triangle',
  dot: 'Dot',
};

/** A row of toggle buttons choosing one value; none is pressed when the selection's values differ. */
function Choices<T extends string | number>({
  label,
  value,
  options,
  onPick,
}: {
  label: string;
  value: T | null;
  options: { value: T; label: string; body: ReactNode; chip?: boolean }[];
  onPick(value: T): void;
}) {
  return (
    <fieldset className="style-row" aria-label={label}>
      {options.map((o) => (
        <button
          type="button"
          key={o.value}
          className={`tool ${o.chip ? 'chip' : ''} ${value === o.value ? 'active' : ''}`}
          aria-pressed={value === o.value}
          aria-label={o.label}
          title={o.label}
          onClick={() => onPick(o.value)}
        >
          {o.body}
        </button>
      ))}
    </fieldset>
  );
}

function LineSample({ width, dash }: { width: number; dash?: string | undefined }) {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <line
        x1="3"
        y1="10"
        x2="17"
        y2="10"
        stroke="currentColor"
        strokeWidth={width}
        strokeLinecap="round"
        strokeDasharray={dash}
      />
    </svg>
  );
}

export function StylePanel({ actions, index }: { actions: Actions; index: ShapeIndex }) {
  const recs = useSelectedRecords(index);
  if (recs.length === 0) return null;
  const editable = recs.filter((r) => !r.locked);
  const allLocked = editable.length === 0;
  const keys = new Set(editable.flatMap((r) => styleKeysFor(r.type)));
  const color = common(editable, (r) => r.color);
  const textRecs = editable.filter((r) => textShapeTypes.has(r.type));
  const size = common(textRecs, (r) => r.fontSize ?? 'm');
  const align = common(
    textRecs,
    (r) => r.align ?? (r.type === 'sticky' || r.type === 'text' ? 'start' : 'middle'),
  );
  const stroked = editable.filter((r) => styleKeysFor(r.type).includes('dash'));
  const width = common(stroked, strokeWidthOf);
  const dash = common(stroked, (r) => r.dash ?? 'solid');
  const arrows = editable.filter((r) => r.type === 'arrow');
  const startHead = common(arrows, (r) => r.startHead ?? 'none');
  const endHead = common(arrows, (r) => r.endHead ?? 'arrow');

  return (
    <div className="style-panel panel" role="toolbar" aria-label="Selection" aria-orientation="vertical">
      {!allLocked && (
        <fieldset className="swatches" aria-label="Colour">
          {colorNames.map((c) => (
            <button
              type="button"
              key={c}
              aria-pressed={color === c}
              aria-label={`Colour ${c}`}
              title={c}
              className={`swatch ${color === c ? 'on' : ''}`}
              style={{ background: colors[c] }}
              onClick={() => actions.recolor(c as ColorName)}
            />
          ))}
        </fieldset>
      )}
      {keys.has('fontSize') && (
        <>
          <Choices
            label="Text size"
            value={size}
            options={(Object.keys(sizeLabels) as FontSize[]).map((v) => ({
              value: v,
              label: `Text size ${sizeLabels[v]}`,
              body: sizeLabels[v],
              chip: true,
            }))}
            onPick={(fontSize) => {
              actions.restyle({ fontSize });
              // A note keeps its size and its text shrinks to fit: say so when the size picked
              // does not show, rather than appear to do nothing.
              if (textRecs.some((r) => layoutOf({ ...r, fontSize }).size < fontSizes[fontSize]))
                useEditor
                  .getState()
                  .setNotice(
                    `The text is too long to show at ${sizeLabels[fontSize]} in this size, so it shrinks to fit. Make the shape larger to see it bigger.`,
                  );
            }}
          />
          <Choices
            label="Text alignment"
            value={align}
            options={alignLabels.map((a) => ({
              value: a.value,
              label: a.label,
              body: <Icon name={a.icon} />,
            }))}
            onPick={(value) => actions.restyle({ align: value })}
          />
        </>
      )}
      {keys.has('strokeWidth') && (
        <>
          <Choices
            label="Stroke width"
            value={width}
            options={strokeWidths.map((w) => ({
              value: w,
              label: `Stroke width ${w}`,
              body: <LineSample width={Math.min(w, 7)} />,
            }))}
            onPick={(strokeWidth) => actions.restyle({ strokeWidth })}
          />
          <Choices
            label="Line style"
            value={dash}
            options={dashLabels.map((d) => ({
              value: d.value,
              label: d.label,
              body: (
                <LineSample
                  width={2}
                  dash={d.value === 'dashed' ? '5 4' : d.value === 'dotted' ? '0 4' : undefined}
                />
              ),
            }))}
            onPick={(value) => actions.restyle({ dash: value })}
          />
        </>
      )}
      {keys.has('startHead') && (
        <div className="style-row heads">
          {(
            [
              ['startHead', 'Start', startHead],
              ['endHead', 'End', endHead],
            ] as const
          ).map(([field, label, value]) => (
            <label key={field}>
              <span>{label}</span>
              <select
                className="head-select"
                aria-label={`${label} arrowhead`}
                value={value ?? ''}
                onChange={(e) => actions.restyle({ [field]: ArrowHead.parse(e.target.value) })}
              >
                {value === null && <option value="">Mixed</option>}
                {ArrowHead.options.map((h) => (
                  <option key={h} value={h}>
                    {headLabels[h]}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
      )}
      {!allLocked && <span className="sep" />}
      <fieldset className="style-row actions" aria-label="Arrange">
        {!allLocked && (
          <>
            <ToolButton label="Bring forward" icon="up" shortcut="Ctrl+]" onClick={actions.forward} />
            <ToolButton label="Send back" icon="down" shortcut="Ctrl+[" onClick={actions.backward} />
            <ToolButton label="Duplicate" icon="copy" shortcut="Ctrl+D" onClick={actions.duplicate} />
          </>
        )}
        <ToolButton
          label={allLocked ? 'Unlock' : 'Lock'}
          icon={allLocked ? 'unlock' : 'lock'}
          title={allLocked ? 'Unlock — Shift+L' : 'Lock: nobody can move or change it — Shift+L'}
          active={allLocked}
          onClick={actions.toggleLock}
        />
        {!allLocked && (
          <ToolButton
            label="Delete"
            icon="trash"
            shortcut="Del"
            className="danger"
            onClick={actions.deleteSelection}
          />
        )}
      </fieldset>
    </div>
  );
}
