// Frames as pictures: SVG and PNG per frame, PDF with one page per frame.
import type { ShapeRecord } from '@tandem/shared';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { toSvg } from '../canvas/svgExport.ts';
import { fontFacesFor } from '../drawing/fontEmbed.ts';
import { imagesOf } from '../images/transfer.ts';
import { picturesPdf } from '../ui/download.ts';
import { frameMembers } from './frames.ts';

/** The shapes of a frame in paint order: the frame, then what lies inside it. */
export function frameContents(
  frame: ShapeRecord,
  snap: ReturnType<ShapeIndex['getSnapshot']>,
): ShapeRecord[] {
  const all = snap.list.map((e) => e.rec);
  const members = new Set(frameMembers(frame, all));
  return [frame, ...all.filter((s) => members.has(s.id))];
}

export async function frameImage(
  boardId: string,
  frame: ShapeRecord,
  snap: ReturnType<ShapeIndex['getSnapshot']>,
) {
  const list = frameContents(frame, snap);
  return toSvg(list, snap.byId, 32, await imagesOf(boardId, list), await fontFacesFor(list));
}

/** One PDF page per frame, each the frame's own size. */
export async function framesPdf(
  boardId: string,
  frames: ShapeRecord[],
  snap: ReturnType<ShapeIndex['getSnapshot']>,
) {
  const pictures = [];
  for (const frame of frames) pictures.push(await frameImage(boardId, frame, snap));
  return picturesPdf(pictures);
}
