// What the board's context menu (right-click, Shift+F10, the Menu key) offers, and where it goes:
// pure functions, so the menu component only renders them and runs the chosen command.
import type { ShapeRecord } from '@tandem/shared';
import { type Command, commandKey } from '../commandKeys.ts';

/** The commands the menu offers: those with keys, but the one that opens the menu. */
export type MenuCommand = Exclude<Command, 'contextMenu'>;

export interface MenuItem {
  command: MenuCommand;
  label: string;
  /** The key shown beside it, from the one shortcut list. */
  keys: string;
  /** Shown greyed where it cannot apply, not hidden, so the menu keeps its shape (as native menus do). */
  disabled: boolean;
}

/** Items in groups, drawn with a rule between groups. */
export type MenuGroups = MenuItem[][];

const item = (command: MenuCommand, label: string, disabled = false): MenuItem => ({
  command,
  label,
  keys: commandKey(command),
  disabled,
});

/** What can be undone and redone now (the toolbar's history, this person's changes). */
export interface UndoState {
  canUndo: boolean;
  canRedo: boolean;
}

/**
 * The menu for `selected` (the selection's records; none for a right-click on empty canvas).
 * A read-only board (a viewer, the public view, a version previewed) gets no item that edits.
 * `comment`: this person may start a thread here (an owner, editor or commenter, docs/api.md
 * §18, not on a version previewed): Comment starts one where the menu was opened.
 */
export function contextMenuItems(
  selected: ShapeRecord[],
  readOnly: boolean,
  boardEmpty: boolean,
  history: UndoState,
  comment: boolean,
): MenuGroups {
  const groups: MenuGroups = [];
  const keep = (list: (MenuItem | false)[]) => {
    const shown = list.filter((i): i is MenuItem => i !== false);
    if (shown.length > 0) groups.push(shown);
  };
  const edit = !readOnly;
  if (selected.length === 0) {
    keep([edit && item('paste', 'Paste here'), item('selectAll', 'Select all', boardEmpty)]);
    keep([comment && item('comment', 'Comment')]);
    keep([item('zoomToFit', 'Zoom to fit', boardEmpty)]);
    keep([edit && item('undo', 'Undo', !history.canUndo), edit && item('redo', 'Redo', !history.canRedo)]);
    return groups;
  }
  const allLocked = selected.every((r) => r.locked);
  const grouped = selected.some((r) => r.groupId);
  keep([
    edit && item('cut', 'Cut', allLocked),
    item('copy', 'Copy'),
    edit && item('paste', 'Paste'),
    edit && item('duplicate', 'Duplicate'),
    edit && item('delete', 'Delete', allLocked),
  ]);
  keep([comment && item('comment', 'Comment')]);
  if (edit)
    keep([
      item('toFront', 'Bring to front'),
      item('forward', 'Bring forward'),
      item('backward', 'Send back'),
      item('toBack', 'Send to back'),
    ]);
  if (edit)
    keep([
      item('group', 'Group', selected.length < 2),
      item('ungroup', 'Ungroup', !grouped),
      item('lock', allLocked ? 'Unlock' : 'Lock'),
    ]);
  keep([item('copyPng', 'Copy as PNG'), item('zoomToSelection', 'Zoom to selection')]);
  return groups;
}

/** Space kept between the menu and the viewport's edge. */
const EDGE = 4;

/**
 * Where a menu of `size` opened at `at` goes inside a `view` (both in page pixels): to the right
 * of and below the point, flipped to its left or above it where it would cross the edge, as a
 * native menu is; pinned to the edge when it fits neither way.
 */
export function placeMenu(
  at: { x: number; y: number },
  size: { w: number; h: number },
  view: { w: number; h: number },
): { x: number; y: number } {
  const along = (p: number, len: number, room: number) => {
    if (p + len <= room - EDGE) return p;
    if (p - len >= EDGE) return p - len;
    return Math.max(EDGE, room - EDGE - len);
  };
  return { x: along(at.x, size.w, view.w), y: along(at.y, size.h, view.h) };
}
