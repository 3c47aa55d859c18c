import type { Actions } from '../actions.ts';
import { useEditor } from '../store.ts';
import { Icon } from './icons.tsx';

export function ZoomControls({ actions }: { actions: Actions }) {
  const zoom = useEditor((s) => s.viewport.zoom);
  const hasSelection = useEditor((s) => s.selection.length > 0);
  const minimap = useEditor((s) => s.minimap);
  return (
    <div className="zoom panel" role="toolbar" aria-label="Zoom">
      <button
        type="button"
        className="tool"
        aria-label="Zoom out"
        title="Zoom out — −"
        onClick={actions.zoomOut}
      >
        <Icon name="zoomOut" />
      </button>
      <button
        type="button"
        className="zoom-level"
        title="Reset to 100% — Ctrl+0"
        onClick={actions.zoomReset}
        aria-label="Reset zoom"
      >
        {Math.round(zoom * 100)}%
      </button>
      <button
        type="button"
        className="tool"
        aria-label="Zoom in"
        title="Zoom in — +"
        onClick={actions.zoomIn}
      >
        <Icon name="zoomIn" />
      </button>
      <button
        type="button"
        className="tool"
        aria-label="Zoom to fit"
        title="Zoom to fit the whole board — Shift+1"
        onClick={actions.zoomToFit}
      >
        <Icon name="fit" />
      </button>
      <button
        type="button"
        className="tool wide-only"
        aria-label="Zoom to selection"
        title="Zoom to selection — Shift+2"
        disabled={!hasSelection}
        onClick={actions.zoomToSelection}
      >
        <Icon name="fitSelection" />
      </button>
      <button
        type="button"
        className="tool wide-only"
        aria-label="Minimap"
        aria-pressed={minimap}
        title={minimap ? 'Hide the minimap' : 'Show the minimap'}
        onClick={() => useEditor.getState().setMinimap(!minimap)}
      >
        <Icon name="minimap" />
      </button>
    </div>
  );
}
