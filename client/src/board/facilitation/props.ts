// What the facilitation bar and each of its menus and overlays are given by the editor.
import type { Role, User } from '@tandem/shared';
import type { Awareness } from 'y-protocols/awareness';
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
   * The board's first document (docs/api.md §17): the timer and the presentation are the board's,
   * one for every page, so they live in the first page's `meta`. Absent: `session`'s (the first
   * page is shown).
   */
  boardDoc?: Y.Doc;
  /**
   * Presence on the board's first document, where everyone on the board is with their page:
   * followers find the presenter there, whichever page either is on. Absent: `session`'s.
   */
  boardAwareness?: Awareness;
  /** The page shown (docs/api.md §17); absent: the first page. */
  pageId?: string;
  index: ShapeIndex;
  /** Read-only right now (viewer, or the connection lost). */
  locked: boolean;
  /** This user's presence, for the laser pointer, cursor chat and reactions. */
  presence: LocalPresence;
  /**
   * The editor's column of notes at the bottom of the view ("You are viewing…", "Following…"):
   * the presenting chip is shown in it, so it stacks with them and the messages above them on
   * every screen size rather than being placed over them. Null until the editor has drawn it.
   */
  bannerColumn: HTMLElement | null;
  onMessage(sentence: string): void;
}
