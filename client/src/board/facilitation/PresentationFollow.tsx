// Following a presentation, and the presenter's chip and arrow keys (docs/api.md §14).
import type { PresentationState } from '@tandem/shared';
import { useEffect, useRef } from 'react';
import { boundsOf } from '../model/geometry.ts';
import { useRemotes } from '../presence/remote.ts';
import { isTyping, onKeydown } from '../shortcuts.ts';
import { fitRect, useEditor } from '../store.ts';
import { framesInOrder, stepFrame } from './frames.ts';
import { shouldFollow, showFrame, summonEveryone, writePresentation } from './presentation.ts';
import type { FacilitationProps } from './props.ts';

/**
 * Everyone but the presenter follows the presenter's viewport (the avatars' follow mechanism),
 * until they move the view themselves; "Follow again" and "Bring everyone here" re-follow. The
 * presenter steps through the frames with the arrow keys and can bring everyone along.
 */
export function PresentationFollow(props: FacilitationProps & { presentation: PresentationState | null }) {
  const { presentation, session, user, index } = props;
  const remotes = useRemotes(session.awareness);
  const followId = useEditor((s) => s.followClientId);
  const previous = useRef<PresentationState | null>(null);
  const wantFollow = useRef(false);
  const presenter = presentation
    ? (remotes.find((r) => r.state.user.id === presentation.presenterId && !r.state.idle) ??
      remotes.find((r) => r.state.user.id === presentation.presenterId))
    : undefined;
  const mine = presentation?.presenterId === user.id;

  useEffect(() => {
    if (shouldFollow(previous.current, presentation, user.id)) wantFollow.current = true;
    if (!presentation) {
      wantFollow.current = false;
      if (previous.current && previous.current.presenterId !== user.id) useEditor.getState().follow(null);
    }
    previous.current = presentation;
  }, [presentation, user.id]);
  useEffect(() => {
    if (wantFollow.current && presenter) {
      wantFollow.current = false;
      useEditor.getState().follow(presenter.clientId);
    }
  });

  // The presenter's arrow keys step through the frames; captured before the editor's own keys,
  // which would move the selection.
  useEffect(() => {
    if (!mine || !presentation) return;
    const down = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const step =
        e.key === 'ArrowRight' || e.key === 'ArrowDown'
          ? 1
          : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
            ? -1
            : 0;
      if (step === 0) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      const frames = framesInOrder(index.getSnapshot().list.map((x) => x.rec));
      const next = stepFrame(frames, presentation.frameId, step);
      writePresentation(session.doc, showFrame(presentation, next));
      const f = next ? index.getSnapshot().byId.get(next) : undefined;
      if (f) {
        const st = useEditor.getState();
        st.setViewport(fitRect(boundsOf(f), st.screen));
      }
    };
    return onKeydown(down, { capture: true });
  }, [mine, presentation, index, session]);

  if (!presentation) return null;
  if (mine) {
    return (
      <div className="panel presenting-chip" role="status">
        <span>You are presenting</span>
        <button
          type="button"
          className="btn small primary"
          onClick={() => writePresentation(session.doc, summonEveryone(presentation))}
        >
          Bring everyone here
        </button>
        <button
          type="button"
          className="btn small ghost"
          onClick={() => writePresentation(session.doc, null)}
        >
          Stop
        </button>
      </div>
    );
  }
  const following = presenter !== undefined && followId === presenter.clientId;
  return (
    <div className="panel presenting-chip" role="status">
      <span>{presenter ? `${presenter.state.user.name} is presenting` : 'A presentation is on'}</span>
      {!following && presenter && (
        <button
          type="button"
          className="btn small primary"
          onClick={() => useEditor.getState().follow(presenter.clientId)}
        >
          Follow again
        </button>
      )}
    </div>
  );
}
