// Align, distribute, group and ungroup for a selection of several shapes (a group counts as one).
// Shortcuts follow tldraw: Alt+A/H/D align left/centre/right, Alt+W/V/S top/middle/bottom,
// Alt+Shift+H/V distribute, Ctrl+G group, Ctrl+Shift+G ungroup.
import type { Actions } from '../actions.ts';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { type Alignment, unitsOf } from '../model/layout.ts';
import { Icon } from './icons.tsx';
import { useSelectedRecords } from './StylePanel.tsx';

const aligns: { how: Alignment; label: string; icon: string; key: string }[] = [
  { how: 'left', label: 'Align left', icon: 'alignLeft', key: 'Alt+A' },
  { how: 'center', label: 'Align centre', icon: 'alignCenter', key: 'Alt+H' },
  { how: 'right', label: 'Align right', icon: 'alignRight', key: 'Alt+D' },
  { how: 'top', label: 'Align top', icon: 'alignTop', key: 'Alt+W' },
  { how: 'middle', label: 'Align middle', icon: 'alignMiddle', key: 'Alt+V' },
  { how: 'bottom', label: 'Align bottom', icon: 'alignBottom', key: 'Alt+S' },
];

const distributions = [
  { axis: 'x', label: 'Distribute horizontally', icon: 'distributeX', key: 'Alt+Shift+H' },
  { axis: 'y', label: 'Distribute vertically', icon: 'distributeY', key: 'Alt+Shift+V' },
] as const;

export function ArrangeBar({ actions, index }: { actions: Actions; index: ShapeIndex }) {
  const recs = useSelectedRecords(index).filter((r) => !r.locked);
  if (recs.length < 2) return null;
  const units = unitsOf(
    recs,
    recs.map((r) => r.id),
  ).length;
  const grouped = recs.some((r) => r.groupId);
  return (
    <div className="arrange-bar panel" role="toolbar" aria-label="Align and group">
      {units >= 2 &&
        aligns.map((a) => (
          <button
            type="button"
            key={a.how}
            className="tool"
            aria-label={a.label}
            title={`${a.label} — ${a.key}`}
            onClick={() => actions.align(a.how)}
          >
            <Icon name={a.icon} />
          </button>
        ))}
      {units >= 3 && (
        <>
          <span className="sep" />
          {distributions.map((d) => (
            <button
              type="button"
              key={d.axis}
              className="tool"
              aria-label={d.label}
              title={`${d.label} — ${d.key}`}
              onClick={() => actions.distribute(d.axis)}
            >
              <Icon name={d.icon} />
            </button>
          ))}
        </>
      )}
      <span className="sep" />
      {units >= 2 && (
        <button
          type="button"
          className="tool"
          aria-label="Group"
          title="Group — Ctrl+G"
          onClick={actions.group}
        >
          <Icon name="group" />
        </button>
      )}
      {grouped && (
        <button
          type="button"
          className="tool"
          aria-label="Ungroup"
          title="Ungroup — Ctrl+Shift+G"
          onClick={actions.ungroup}
        >
          <Icon name="ungroup" />
        </button>
      )}
    </div>
  );
}
