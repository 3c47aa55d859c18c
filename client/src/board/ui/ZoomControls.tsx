import type { Actions } from '../actions.ts';
import { commandKey } from '../commandKeys.ts';
import { useEditor } from '../store.ts';
import { useRovingToolbar } from './rovingToolbar.ts';
import { SHORTCUTS_KEY } from './shortcutList.ts';
import { ToolButton } from './ToolButton.tsx';

export function ZoomControls({
  actions,
  onShortcuts,
  onFind,
}: {
  actions: Actions;
  onShortcuts(): void;
  /** Opens Find on this page: the way to it without a keyboard (a phone, a tablet). */
  onFind(): void;
}) {
  const zoom = useEditor((s) => s.viewport.zoom);
  const hasSelection = useEditor((s) => s.selection.length > 0);
  const minimap = useEditor((s) => s.minimap);
  // One Tab stop, arrows along the bar (rovingToolbar.ts), as the tool bar.
  const { tabIndexOf, barProps } = useRovingToolbar([
    'Zoom out',
    'Reset zoom',
    'Zoom in',
    'Zoom to fit',
    'Find on this page',
    ...(hasSelection ? ['Zoom to selection'] : []),
    'Minimap',
    'Keyboard shortcuts',
  ]);
  return (
    <div className="zoom panel" role="toolbar" aria-label="Zoom" {...barProps}>
      <ToolButton
        label="Zoom out"
        tabIndex={tabIndexOf('Zoom out')}
        icon="zoomOut"
        shortcut={commandKey('zoomOut')}
        onClick={actions.zoomOut}
      />
      {/* On a phone the readout gives way to Find, with Zoom to selection and the minimap: the
          bar must leave the status line its room (e2e/editor, "fits a phone screen"). */}
      <button
        type="button"
        className="zoom-level wide-only"
        title={`Reset to 100% — ${commandKey('zoomReset')}`}
        onClick={actions.zoomReset}
        aria-label="Reset zoom"
        tabIndex={tabIndexOf('Reset zoom')}
      >
        {Math.round(zoom * 100)}%
      </button>
      <ToolButton
        label="Zoom in"
        tabIndex={tabIndexOf('Zoom in')}
        icon="zoomIn"
        shortcut={commandKey('zoomIn')}
        onClick={actions.zoomIn}
      />
      <ToolButton
        label="Zoom to fit"
        tabIndex={tabIndexOf('Zoom to fit')}
        icon="fit"
        title={`Zoom to fit the whole board — ${commandKey('zoomToFit')}`}
        onClick={actions.zoomToFit}
      />
      <ToolButton
        label="Find on this page"
        tabIndex={tabIndexOf('Find on this page')}
        icon="search"
        shortcut="Ctrl+F"
        onClick={onFind}
      />
      <ToolButton
        label="Zoom to selection"
        tabIndex={tabIndexOf('Zoom to selection')}
        icon="fitSelection"
        shortcut={commandKey('zoomToSelection')}
        className="wide-only"
        disabled={!hasSelection}
        onClick={actions.zoomToSelection}
      />
      <ToolButton
        label="Minimap"
        tabIndex={tabIndexOf('Minimap')}
        icon="minimap"
        className="wide-only"
        title={minimap ? 'Hide the minimap' : 'Show the minimap'}
        pressed={minimap}
        onClick={() => useEditor.getState().setMinimap(!minimap)}
      />
      <ToolButton
        label="Keyboard shortcuts"
        tabIndex={tabIndexOf('Keyboard shortcuts')}
        icon="keyboard"
        shortcut={SHORTCUTS_KEY}
        className="wide-only"
        onClick={onShortcuts}
      />
    </div>
  );
}
