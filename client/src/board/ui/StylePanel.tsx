// The selection's style (colour, text size and alignment, stroke width and dash, arrowheads) and
// its actions (order, duplicate, lock, delete). It renders the selected records and dispatches.
import {
  ArrowHead,
  type ColorName,
  type ColorValue,
  colorNames,
  colors,
  type Dash,
  FillStyle,
  FontFamily,
  type FontSize,
  fontSizes,
  MAX_ALT_TEXT,
  Route,
  type ShapeRecord,
  Sloppiness,
  strokeWidths,
  styleDefaults,
  type TextAlign,
  textShapeTypes,
} from '@tandem/shared';
import { type ReactNode, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { Actions } from '../actions.ts';
import { layoutOf } from '../canvas/measure.ts';
import { ink } from '../canvas/palette.ts';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { strokeWidthOf } from '../canvas/strokes.ts';
import { type StylePatch, styleKeysFor } from '../model/shapes.ts';
import { useEditor } from '../store.ts';
import { stylePanelPlaces, useClearOfSelection } from './clearOfSelection.ts';
import { Icon } from './icons.tsx';
import { ToolButton } from './ToolButton.tsx';
import { usePhoneLayout } from './touch.ts';

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

const fillStyleLabels: Record<FillStyle, string> = {
  none: 'None',
  solid: 'Solid',
  hatched: 'Hatched',
  'cross-hatched': 'Cross-hatched',
};
const fontLabels: Record<FontFamily, string> = { hand: 'Hand-drawn', sans: 'Sans', mono: 'Mono' };
const sloppinessLabels: Record<Sloppiness, string> = {
  architect: 'Architect',
  artist: 'Artist',
  cartoonist: 'Cartoonist',
};
const routeLabels: Record<Route, string> = { straight: 'Straight', elbow: 'Elbow', curved: 'Curved' };

/** A labelled select of one style field; "Mixed" shows while the selection's values differ. */
function Pick<T extends string>({
  label,
  value,
  options,
  onPick,
}: {
  label: string;
  value: T | null;
  options: Record<T, string>;
  onPick(value: T): void;
}) {
  return (
    <label className="style-pick">
      <span>{label}</span>
      <select
        className="head-select"
        aria-label={label}
        value={value ?? ''}
        onChange={(e) => onPick(e.target.value as T)}
      >
        {value === null && <option value="">Mixed</option>}
        {(Object.keys(options) as T[]).map((k) => (
          <option key={k} value={k}>
            {options[k]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Palette swatches and a custom colour for one colour field (stroke or fill). */
function ColourRow({
  label,
  value,
  paint,
  onPick,
}: {
  label: string;
  value: ColorValue | null;
  paint(c: ColorName): string;
  onPick(c: ColorValue): void;
}) {
  const custom = value !== null && !(value in colors) ? value : null;
  return (
    <fieldset className="colour-row" aria-label={label}>
      <legend>{label}</legend>
      {colorNames.map((c) => (
        <button
          type="button"
          key={c}
          aria-pressed={value === c}
          // "Stroke red", not "Stroke colour red": the shape's own "Colour red" stays one name.
          aria-label={`${label.split(' ')[0]} ${c}`}
          title={c}
          className={`swatch mini ${value === c ? 'on' : ''}`}
          style={{ background: paint(c) }}
          onClick={() => onPick(c)}
        />
      ))}
      <input
        type="color"
        className={`custom-colour ${custom ? 'on' : ''}`}
        aria-label={`Custom ${label.toLowerCase()}`}
        title="Custom colour"
        value={custom ?? '#000000'}
        onChange={(e) => onPick(e.target.value)}
      />
    </fieldset>
  );
}

/**
 * Opacity as a slider that commits once, when it is let go (or on each arrow key), so dragging it
 * is one undoable change and one update to everyone, not one per pixel.
 */
function OpacitySlider({ value, onCommit }: { value: number | null; onCommit(v: number): void }) {
  const ref = useRef<HTMLInputElement>(null);
  const commit = useRef(onCommit);
  commit.current = onCommit;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onChange = () => commit.current(Number(el.value) / 100);
    el.addEventListener('change', onChange);
    return () => el.removeEventListener('change', onChange);
  }, []);
  const percent = value === null ? null : Math.round(value * 100);
  return (
    <label className="style-pick opacity">
      <span>Opacity {percent === null ? 'mixed' : `${percent}%`}</span>
      <input
        ref={ref}
        key={percent ?? 'mixed'}
        type="range"
        aria-label="Opacity"
        min={10}
        max={100}
        step={10}
        defaultValue={percent ?? 100}
      />
    </label>
  );
}

/**
 * An image's alt text, what a screen reader says for it and an export's <title> (docs/api.md §10).
 * It is saved when the field is left or on Enter (Shift+Enter is a new line), so writing it is
 * one undoable change and one update to everyone, not one per key. While it is not being edited
 * it shows the board's value, so another person's change appears live.
 */
function AltTextField({ value, onCommit }: { value: string; onCommit(alt: string): void }) {
  const [draft, setDraft] = useState(value);
  const editing = useRef(false);
  const id = useId();
  useEffect(() => {
    if (!editing.current) setDraft(value);
  }, [value]);
  const commit = () => {
    if (!editing.current) return;
    editing.current = false;
    if (draft.trim() !== value) onCommit(draft);
  };
  return (
    <div className="style-pick alt-text">
      <label htmlFor={id}>Alt text</label>
      <textarea
        id={id}
        rows={2}
        maxLength={MAX_ALT_TEXT}
        placeholder="Describe the image"
        value={draft}
        onFocus={() => {
          editing.current = true;
        }}
        onChange={(e) => {
          editing.current = true;
          setDraft(e.target.value);
        }}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            commit();
          } else if (e.key === 'Escape') {
            // Escape puts back what the board holds, and leaves the field.
            editing.current = false;
            setDraft(value);
            e.currentTarget.blur();
          }
        }}
      />
    </div>
  );
}

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

function CornerSample({ r }: { r: number }) {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <path d={`M3 17 V${3 + r} Q3 3 ${3 + r} 3 H17`} fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

function RouteSample({ route }: { route: Route }) {
  const d =
    route === 'straight' ? 'M3 17 L17 3' : route === 'elbow' ? 'M3 17 H10 V3 H17' : 'M3 17 C12 17 8 3 17 3';
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
    </svg>
  );
}

export function StylePanel({ actions, index }: { actions: Actions; index: ShapeIndex }) {
  const recs = useSelectedRecords(index);
  // On a phone the panel is a one-row sheet at the bottom (editor.css): a row, not a column.
  const phone = usePhoneLayout();
  const panelRef = useRef<HTMLDivElement>(null);
  const aside = useClearOfSelection(panelRef, recs, stylePanelPlaces, !phone);
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
  const carrying = (k: keyof StylePatch) => editable.filter((r) => styleKeysFor(r.type).includes(k));
  const stroke = common(carrying('stroke'), (r) => r.stroke ?? r.color);
  const fill = common(carrying('fill'), (r) => r.fill ?? r.color);
  // A record without fill fields has a light solid tint of its colour: shown as solid.
  const fillStyle = common(carrying('fillStyle'), (r) => r.fillStyle ?? 'solid');
  const opacity = common(carrying('opacity'), (r) => r.opacity ?? styleDefaults.opacity);
  const fontFamily = common(carrying('fontFamily'), (r) => r.fontFamily ?? styleDefaults.fontFamily);
  const sloppiness = common(carrying('sloppiness'), (r) => r.sloppiness ?? styleDefaults.sloppiness);
  const roundness = common(carrying('roundness'), (r) => r.roundness ?? styleDefaults.roundness);
  const route = common(arrows, (r) => r.route ?? styleDefaults.route);

  return (
    <div
      ref={panelRef}
      // Locked, it holds one control, so it is only as wide as that (a user trial: a wide card
      // round one icon).
      className={`style-panel panel${allLocked ? ' locked' : ''}`}
      style={aside}
      role="toolbar"
      aria-label="Selection"
      aria-orientation={phone ? 'horizontal' : 'vertical'}
    >
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
      {keys.has('stroke') && (
        <ColourRow
          label="Stroke colour"
          value={stroke}
          paint={(c) => ink[c]}
          onPick={(c) => actions.restyle({ stroke: c })}
        />
      )}
      {keys.has('fill') && (
        <ColourRow
          label="Fill colour"
          value={fill}
          paint={(c) => colors[c]}
          onPick={(c) => actions.restyle({ fill: c })}
        />
      )}
      {(keys.has('fillStyle') || keys.has('fontFamily') || keys.has('sloppiness')) && (
        <div className="style-row picks">
          {keys.has('fillStyle') && (
            <Pick
              label="Fill style"
              value={fillStyle}
              options={fillStyleLabels}
              onPick={(v) => actions.restyle({ fillStyle: FillStyle.parse(v) })}
            />
          )}
          {keys.has('fontFamily') && (
            <Pick
              label="Font"
              value={fontFamily}
              options={fontLabels}
              onPick={(v) => actions.restyle({ fontFamily: FontFamily.parse(v) })}
            />
          )}
          {keys.has('sloppiness') && (
            <Pick
              label="Sloppiness"
              value={sloppiness}
              options={sloppinessLabels}
              onPick={(v) => actions.restyle({ sloppiness: Sloppiness.parse(v) })}
            />
          )}
        </div>
      )}
      {keys.has('roundness') && (
        <Choices
          label="Corners"
          value={roundness}
          options={[
            { value: 'sharp', label: 'Sharp corners', body: <CornerSample r={0} /> },
            { value: 'round', label: 'Round corners', body: <CornerSample r={6} /> },
          ]}
          onPick={(v) => actions.restyle({ roundness: v })}
        />
      )}
      {keys.has('route') && (
        <Choices
          label="Route"
          value={route}
          options={Route.options.map((r) => ({
            value: r,
            label: routeLabels[r],
            body: <RouteSample route={r} />,
          }))}
          onPick={(v) => actions.restyle({ route: v })}
        />
      )}
      {keys.has('opacity') && (
        <OpacitySlider value={opacity} onCommit={(v) => actions.restyle({ opacity: v })} />
      )}
      {recs.length === 1 && editable[0]?.type === 'image' && (
        <AltTextField
          key={editable[0].id}
          value={editable[0].alt ?? ''}
          onCommit={(alt) => actions.setAltText(alt)}
        />
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
          className={allLocked ? 'labelled' : undefined}
          onClick={actions.toggleLock}
        >
          {/* Alone in the panel, it says what it does beside its icon. */}
          {allLocked && <span aria-hidden="true">Unlock</span>}
        </ToolButton>
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
