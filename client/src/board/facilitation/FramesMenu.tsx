// The Frames menu: every frame in order, to rename, go to and export (docs/api.md §14).
import type { ShapeRecord } from '@tandem/shared';
import { useState } from 'react';
import { errorSentence } from '../../api/client.ts';
import { boundsOf } from '../model/geometry.ts';
import { fitRect, useEditor } from '../store.ts';
import { uncoveredNow } from '../ui/clearOfSelection.ts';
import { download, safeName, svgToPng } from '../ui/download.ts';
import { touchLayout } from '../ui/touch.ts';
import { FrameNameField } from './FrameNameField.tsx';
import { frameImage, framesPdf } from './frameExport.ts';
import { frameLabel, framesInOrder } from './frames.ts';
import { useShapes } from './hooks.ts';
import type { FacilitationProps } from './props.ts';

/** What a frame, or all of them, can be exported as (PDF: one page per frame). */
const FRAME_EXPORTS = ['pdf', 'png', 'svg'] as const;

export function FramesMenu(props: FacilitationProps & { canEdit: boolean }) {
  const { index, session, boardId, title, onMessage, canEdit } = props;
  const snap = useShapes(index);
  const frames = framesInOrder(snap.list.map((e) => e.rec));
  const [busy, setBusy] = useState(false);
  const go = (f: ShapeRecord) => {
    const st = useEditor.getState();
    st.setViewport(fitRect(boundsOf(f), st.screen, uncoveredNow(st.screen)));
  };
  const exportFrames = async (list: ShapeRecord[], kind: 'png' | 'svg' | 'pdf') => {
    if (list.length === 0)
      return onMessage(`There are no frames yet. ${touchLayout() ? 'Tap Frame' : 'Press F'} to make one.`);
    setBusy(true);
    try {
      const base = safeName(title);
      if (kind === 'pdf') {
        const blob = await framesPdf(boardId, list, snap);
        if (blob)
          download(
            `${base}${list.length === 1 ? `-${safeName(frameLabel(list[0]!))}` : '-frames'}.pdf`,
            blob,
          );
        return;
      }
      for (const f of list) {
        const { svg, width, height } = await frameImage(boardId, f, snap);
        const name = `${base}-${safeName(frameLabel(f))}`;
        if (kind === 'svg') download(`${name}.svg`, new Blob([svg], { type: 'image/svg+xml' }));
        else download(`${name}.png`, await svgToPng(svg, width, height));
      }
    } catch (error) {
      onMessage(`The export failed: ${errorSentence(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel facilitation-menu" aria-label="Frames list">
      {/* Takes focus as the panel opens (useMenuDismiss), not the first frame's name field. */}
      <h2 tabIndex={-1}>Frames</h2>
      {frames.length === 0 && (
        <p className="hint">
          No frames yet. {canEdit ? `${touchLayout() ? 'Tap Frame' : 'Press F'} to make one.` : ''}
        </p>
      )}
      <ol className="frames-list">
        {frames.map((f) => (
          <li key={f.id}>
            {canEdit ? <FrameNameField doc={session.doc} frame={f} /> : <span>{frameLabel(f)}</span>}
            <button
              type="button"
              className="btn small"
              aria-label={`Go to ${frameLabel(f)}`}
              onClick={() => go(f)}
            >
              Go to
            </button>
            {FRAME_EXPORTS.map((kind) => (
              <button
                key={kind}
                type="button"
                className="btn small ghost"
                disabled={busy}
                aria-label={`Export ${frameLabel(f)} as ${kind.toUpperCase()}`}
                onClick={() => void exportFrames([f], kind)}
              >
                {kind.toUpperCase()}
              </button>
            ))}
          </li>
        ))}
      </ol>
      {frames.length > 0 && (
        <div className="row">
          <span>All frames:</span>
          <button
            type="button"
            className="btn small"
            disabled={busy}
            onClick={() => void exportFrames(frames, 'pdf')}
          >
            Export all frames as PDF
          </button>
          {FRAME_EXPORTS.filter((kind) => kind !== 'pdf').map((kind) => (
            <button
              key={kind}
              type="button"
              className="btn small ghost"
              disabled={busy}
              aria-label={`Export all frames as ${kind.toUpperCase()}`}
              onClick={() => void exportFrames(frames, kind)}
            >
              {kind.toUpperCase()}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
