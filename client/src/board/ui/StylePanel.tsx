// Actions on the selection: colour, order, duplicate, delete.
import { type ColorName, colorNames, colors } from '@tandem/shared';
import type { Actions } from '../actions.ts';
import { useEditor } from '../store.ts';
import { Icon } from './icons.tsx';

export function StylePanel({ actions, currentColor }: { actions: Actions; currentColor: ColorName | null }) {
  const count = useEditor((s) => s.selection.length);
  if (count === 0) return null;
  return (
    <div className="style-panel panel" role="toolbar" aria-label="Selection" aria-orientation="vertical">
      <div className="swatches" role="toolbar" aria-label="Colour">
        {colorNames.map((c) => (
          <button
            type="button"
            key={c}
            aria-pressed={currentColor === c}
            aria-label={`Colour ${c}`}
            title={c}
            className={`swatch ${currentColor === c ? 'on' : ''}`}
            style={{ background: colors[c] }}
            onClick={() => actions.recolor(c as ColorName)}
          />
        ))}
      </div>
      <span className="sep" />
      <button
        type="button"
        className="tool"
        aria-label="Bring forward"
        title="Bring forward — Ctrl+]"
        onClick={actions.forward}
      >
        <Icon name="up" />
      </button>
      <button
        type="button"
        className="tool"
        aria-label="Send back"
        title="Send back — Ctrl+["
        onClick={actions.backward}
      >
        <Icon name="down" />
      </button>
      <button
        type="button"
        className="tool"
        aria-label="Duplicate"
        title="Duplicate — Ctrl+D"
        onClick={actions.duplicate}
      >
        <Icon name="copy" />
      </button>
      <button
        type="button"
        className="tool danger"
        aria-label="Delete"
        title="Delete — Del"
        onClick={actions.deleteSelection}
      >
        <Icon name="trash" />
      </button>
    </div>
  );
}
