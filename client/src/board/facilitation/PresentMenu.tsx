// The Present menu: start and stop presenting, step through the frames (docs/api.md §14).
import { canEditBoard, type PresentationState } from '@tandem/shared';
import { boundsOf } from '../model/geometry.ts';
import { fitRect, useEditor } from '../store.ts';
import { framesInOrder, stepFrame } from './frames.ts';
import { useShapes } from './hooks.ts';
import { showFrame, startPresenting, writePresentation } from './presentation.ts';
import type { FacilitationProps } from './props.ts';

export function PresentMenu(
  props: FacilitationProps & { presentation: PresentationState | null; onClose(): void },
) {
  const { presentation, session, user, index, locked, role } = props;
  const snap = useShapes(index);
  const frames = framesInOrder(snap.list.map((e) => e.rec));
  const mine = presentation?.presenterId === user.id;
  const canPresent = canEditBoard(role) && !locked;
  const show = (frameId: string | null) => {
    const f = frameId ? snap.byId.get(frameId) : undefined;
    if (f) {
      const st = useEditor.getState();
      st.setViewport(fitRect(boundsOf(f), st.screen));
    }
  };
  return (
    <section className="panel facilitation-menu" aria-label="Presenting">
      <h2>Present</h2>
      {!presentation && canPresent && (
        <button
          type="button"
          className="btn primary"
          onClick={() => {
            const first = frames[0]?.id ?? null;
            writePresentation(session.doc, startPresenting(user.id, first));
            show(first);
            props.onClose();
          }}
        >
          Start presenting
        </button>
      )}
      {!presentation && !canPresent && <p className="hint">Nobody is presenting.</p>}
      {presentation && !mine && <p className="hint">Someone is presenting. Move the view to look around.</p>}
      {presentation && mine && (
        <>
          <p className="hint">Use the arrow keys to step through the frames.</p>
          <div className="row">
            <button type="button" className="btn small" onClick={() => stepTo(-1)}>
              Previous frame
            </button>
            <button type="button" className="btn small" onClick={() => stepTo(1)}>
              Next frame
            </button>
          </div>
        </>
      )}
      {presentation && canPresent && (
        <button
          type="button"
          className="btn small ghost"
          onClick={() => writePresentation(session.doc, null)}
        >
          Stop presenting
        </button>
      )}
    </section>
  );
  function stepTo(step: 1 | -1) {
    if (!presentation) return;
    const next = stepFrame(frames, presentation.frameId, step);
    writePresentation(session.doc, showFrame(presentation, next));
    show(next);
  }
}
