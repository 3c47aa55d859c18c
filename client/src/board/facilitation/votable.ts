// Which stickies a vote offers: those in view with something written on them. A template's
// empty placeholder notes are not ideas yet, so they get no vote spot (a vote on one would be
// a vote for nothing, and its spot would cover the empty notes people are still filling in).
import type { ShapeRecord } from '@tandem/shared';
import type { Rect } from '../model/geometry.ts';

export function votableStickies(shapes: readonly ShapeRecord[], view: Rect): ShapeRecord[] {
  return shapes.filter(
    (s) =>
      s.type === 'sticky' &&
      (s.text ?? '').trim() !== '' &&
      s.x + s.w >= view.x &&
      s.x <= view.x + view.w &&
      s.y + s.h >= view.y &&
      s.y <= view.y + view.h,
  );
}
