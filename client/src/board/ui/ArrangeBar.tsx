// Align, distribute, group and ungroup for a selection of several shapes (a group counts as one).
// Shortcuts follow tldraw: Alt+A/H/D align left/centre/right, Alt+W/V/S top/middle/bottom,
// Alt+Shift+H/V distribute, Ctrl+G group, Ctrl+Shift+G ungroup.

import { useRef } from 'react';
import type { Actions } from '../actions.ts';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { unitsOf } from '../model/layout.ts';
import { alignKeyOf, distributeKeyOf } from '../tools/keyboard.ts';
import { arrangeBarPlaces, useClearOfSelection } from './clearOfSelection.ts';
import { alignments, distributions } from './controls.ts';
import { useRovingToolbar } from './rovingToolbar.ts';
import { useSelectedRecords } from './StylePanel.tsx';
import { ToolButton } from './ToolButton.tsx';
import { usePhoneLayout } from './touch.ts';

const aligns = alignments.map((a) => ({ ...a, key: alignKeyOf(a.how) }));

const distributes = distributions.map((d) => ({ ...d, key: distributeKeyOf(d.axis) }));

export function ArrangeBar({ actions, index }: { actions: Actions; index: ShapeIndex }) {
  const selected = useSelectedRecords(index);
  const recs = selected.filter((r) => !r.locked);
  const barRef = useRef<HTMLDivElement>(null);
  // Clear of the whole selection, locked shapes too: they are what the user is looking at.
  const aside = useClearOfSelection(barRef, selected, arrangeBarPlaces, !usePhoneLayout());
  const units =
    recs.length < 2
      ? 0
      : unitsOf(
          recs,
          recs.map((r) => r.id),
        ).length;
  const grouped = recs.some((r) => r.groupId);
  // One Tab stop, arrows along the bar (rovingToolbar.ts), as the tool bar.
  const { tabIndexOf, barProps } = useRovingToolbar([
    ...(units >= 2 ? aligns.map((a) => a.label) : []),
    ...(units >= 3 ? distributes.map((d) => d.label) : []),
    ...(units >= 2 ? ['Group'] : []),
    ...(grouped ? ['Ungroup'] : []),
  ]);
  if (recs.length < 2) return null;
  return (
    <div
      ref={barRef}
      className="arrange-bar panel"
      style={aside}
      role="toolbar"
      aria-label="Align and group"
      {...barProps}
    >
      {units >= 2 &&
        aligns.map((a) => (
          <ToolButton
            key={a.how}
            label={a.label}
            tabIndex={tabIndexOf(a.label)}
            icon={a.icon}
            shortcut={a.key}
            onClick={() => actions.align(a.how)}
          />
        ))}
      {units >= 3 && (
        <>
          <span className="sep" />
          {distributes.map((d) => (
            <ToolButton
              key={d.axis}
              label={d.label}
              tabIndex={tabIndexOf(d.label)}
              icon={d.icon}
              shortcut={d.key}
              onClick={() => actions.distribute(d.axis)}
            />
          ))}
        </>
      )}
      <span className="sep" />
      {units >= 2 && (
        <ToolButton
          label="Group"
          tabIndex={tabIndexOf('Group')}
          icon="group"
          shortcut="Ctrl+G"
          onClick={actions.group}
        />
      )}
      {grouped && (
        <ToolButton
          label="Ungroup"
          tabIndex={tabIndexOf('Ungroup')}
          icon="ungroup"
          shortcut="Ctrl+Shift+G"
          onClick={actions.ungroup}
        />
      )}
    </div>
  );
}
