// Export the board or the selection as PNG, SVG or JSON; import a board's JSON.
import { useRef, useState } from 'react';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { toSvg } from '../canvas/svgExport.ts';
import { exportBoard, importBoard } from '../model/clipboard.ts';
import { useEditor } from '../store.ts';
import type { BoardSession } from '../sync/provider.ts';
import { download, safeName, svgToPng } from './download.ts';
import { Icon } from './icons.tsx';

interface Props {
  session: BoardSession;
  index: ShapeIndex;
  title: string;
  userId: string;
  readOnly: boolean;
  onMessage(sentence: string): void;
}

export function ExportMenu({ session, index, title, userId, readOnly, onMessage }: Props) {
  const [open, setOpen] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const hasSelection = useEditor((s) => s.selection.length > 0);

  const chosen = (selectionOnly: boolean) => {
    const snap = index.getSnapshot();
    const sel = new Set(useEditor.getState().selection);
    const list = snap.list.map((e) => e.rec).filter((r) => !selectionOnly || sel.has(r.id));
    return { list, byId: snap.byId };
  };
  const image = async (kind: 'png' | 'svg', selectionOnly: boolean) => {
    setOpen(false);
    const { list, byId } = chosen(selectionOnly);
    if (list.length === 0) return onMessage('There is nothing to export yet.');
    const { svg, width, height } = toSvg(list, byId);
    const name = `${safeName(title)}${selectionOnly ? '-selection' : ''}`;
    if (kind === 'svg') download(`${name}.svg`, new Blob([svg], { type: 'image/svg+xml' }));
    else {
      try {
        download(`${name}.png`, await svgToPng(svg, width, height));
      } catch {
        onMessage('The PNG could not be made in this browser. Try SVG instead.');
      }
    }
  };
  const json = () => {
    setOpen(false);
    const data = exportBoard(session.doc);
    download(
      `${safeName(title)}.json`,
      new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
    );
  };
  const onFile = async (f: File | undefined) => {
    if (!f) return;
    setOpen(false);
    let data: unknown;
    try {
      data = JSON.parse(await f.text());
    } catch {
      return onMessage('That file is not JSON. Choose a board exported from Tandem.');
    }
    const result = importBoard(session.doc, data, userId);
    if (!result) return onMessage('That file is not a Tandem board export.');
    onMessage(
      `Imported ${result.imported} shape${result.imported === 1 ? '' : 's'}${result.skipped ? `; skipped ${result.skipped} that did not match the format` : ''}.`,
    );
  };

  return (
    <div className="menu-wrap">
      <button
        type="button"
        className="btn ghost"
        aria-label="Export"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <Icon name="download" size={18} /> Export
      </button>
      {open && (
        <div className="menu panel" role="menu">
          <button type="button" role="menuitem" onClick={() => image('png', false)}>
            Board as PNG
          </button>
          <button type="button" role="menuitem" onClick={() => image('svg', false)}>
            Board as SVG
          </button>
          <button type="button" role="menuitem" disabled={!hasSelection} onClick={() => image('png', true)}>
            Selection as PNG
          </button>
          <button type="button" role="menuitem" disabled={!hasSelection} onClick={() => image('svg', true)}>
            Selection as SVG
          </button>
          <button type="button" role="menuitem" onClick={json}>
            Board as JSON
          </button>
          {!readOnly && (
            <button type="button" role="menuitem" onClick={() => file.current?.click()}>
              Import JSON…
            </button>
          )}
        </div>
      )}
      <input
        ref={file}
        type="file"
        accept="application/json,.json"
        hidden
        aria-label="Import JSON file"
        onChange={(e) => {
          void onFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </div>
  );
}
