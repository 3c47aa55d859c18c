// The Present menu: start and stop presenting, step through the frames of every page (docs/api.md
// §14, §17).
import { canEditBoard, MAIN_PAGE_ID, type PresentationState } from '@tandem/shared';
import { framesInOrder } from './frames.ts';
import { useShapes } from './hooks.ts';
import { startPresenting, writePresentation } from './presentation.ts';
import { type PresentingPlace, showOnScreen, stepPresentation } from './presenting.ts';
import type { FacilitationProps } from './props.ts';

export function PresentMenu(
  props: FacilitationProps & { presentation: PresentationState | null; onClose(): void },
) {
  const { presentation, session, user, index, locked, role } = props;
  const snap = useShapes(index);
  const frames = framesInOrder(snap.list.map((e) => e.rec));
  const mine = presentation?.presenterId === user.id;
  const canPresent = canEditBoard(role) && !locked;
  const place: PresentingPlace = {
    boardId: props.boardId,
    pageId: props.pageId ?? MAIN_PAGE_ID,
    boardDoc: props.boardDoc ?? session.doc,
    index,
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
            writePresentation(place.boardDoc, startPresenting(user.id, first, place.pageId));
            showOnScreen(index, first);
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
          <p className="hint">
            Use the arrow keys to step through the frames; past a page's last frame comes the next page.
          </p>
          <div className="row">
            <button
              type="button"
              className="btn small"
              onClick={() => stepPresentation(place, presentation, -1)}
            >
              Previous frame
            </button>
            <button
              type="button"
              className="btn small"
              onClick={() => stepPresentation(place, presentation, 1)}
            >
              Next frame
            </button>
          </div>
        </>
      )}
      {presentation && canPresent && (
        <button
          type="button"
          className="btn small ghost"
          onClick={() => writePresentation(place.boardDoc, null)}
        >
          Stop presenting
        </button>
      )}
    </section>
  );
}
