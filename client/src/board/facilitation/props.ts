// What the facilitation bar and each of its menus and overlays are given by the editor.
import type { Role, User } from '@tandem/shared';
import type * as Y from 'yjs';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import type { LocalPresence } from '../presence/localPresence.ts';
import type { BoardSession } from '../sync/provider.ts';

export interface FacilitationProps {
  boardId: string;
  title: string;
  role: Role;
  user: User;
  session: BoardSession;
  /**
   * The board's first document (docs/api.md §17): the timer is the board's, one for every page,
   * so it lives in the first page's `meta`. Absent: `session`'s (the first page is shown).
   */
  boardDoc?: Y.Doc;
  index: ShapeIndex;
  /** Read-only right now (viewer, or the connection lost). */
  locked: boolean;
  /** This user's presence, for the laser pointer, cursor chat and reactions. */
  presence: LocalPresence;
  onMessage(sentence: string): void;
}
