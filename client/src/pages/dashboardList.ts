// The dashboard's list as a pure reducer: what each socket event and REST answer does
// to the boards shown, with no React and no I/O, so it is tested in Node. The page dispatches;
// when the list needs the server (a board newly shared with me), the state asks for a reload.
import {
  type Board,
  type BoardListItem,
  type BoardPresence,
  foldForFind,
  type WebhookHealth,
} from '@tandem/shared';

export interface DashboardList {
  /** null until the first load answered. */
  boards: BoardListItem[] | null;
  presence: BoardPresence;
  /** A sentence for the person (a board shared with them went away). */
  notice: string | null;
  /** Bumped when the list must be fetched again; the page reloads when it changes. */
  reloads: number;
}

export type DashboardAction =
  | { type: 'loaded'; boards: BoardListItem[] }
  /** board:changed, or my own rename/thumbnail answered. */
  | { type: 'changed'; board: Board }
  /** board:removed, or my own delete answered. */
  | { type: 'removed'; boardId: string; byMe?: boolean }
  | { type: 'presence'; presence: BoardPresence }
  /** members:changed: my role on a board may have changed. */
  | { type: 'membersChanged' }
  | { type: 'dismissNotice' }
  /** webhooks:health: a board of mine got a webhook turned off, or no longer has one. */
  | ({ type: 'webhookHealth' } & WebhookHealth);

export const initialDashboardList: DashboardList = { boards: null, presence: {}, notice: null, reloads: 0 };

export function dashboardReducer(state: DashboardList, action: DashboardAction): DashboardList {
  switch (action.type) {
    case 'loaded':
      return { ...state, boards: action.boards };
    case 'changed': {
      const { board } = action;
      if (!state.boards) return state;
      // A board newly shared with me: its list item needs my role and the owner's name.
      if (!state.boards.some((b) => b.id === board.id)) return { ...state, reloads: state.reloads + 1 };
      return {
        ...state,
        boards: state.boards.map((b) =>
          b.id === board.id
            ? {
                ...b,
                title: board.title,
                updatedAt: board.updatedAt,
                thumbnailAt: board.thumbnailAt ?? b.thumbnailAt,
              }
            : b,
        ),
      };
    }
    case 'removed': {
      const gone = state.boards?.find((b) => b.id === action.boardId);
      if (!gone || !state.boards) return state;
      return {
        ...state,
        boards: state.boards.filter((b) => b.id !== action.boardId),
        notice:
          action.byMe || gone.role === 'owner'
            ? state.notice
            : `“${gone.title}” was deleted or you no longer have access to it.`,
      };
    }
    case 'presence':
      return { ...state, presence: { ...state.presence, ...action.presence } };
    case 'membersChanged':
      return { ...state, reloads: state.reloads + 1 };
    case 'dismissNotice':
      return { ...state, notice: null };
    case 'webhookHealth': {
      if (!state.boards) return state;
      const { boardId, disabled } = action;
      return {
        ...state,
        boards: state.boards.map((b) => {
          if (b.id !== boardId || b.role !== 'owner') return b;
          const { webhookDisabled: _, ...rest } = b;
          return disabled ? { ...rest, webhookDisabled: true } : rest;
        }),
      };
    }
  }
}

/** The boards to show for a search, mine first then shared with me, each in list order. */
export function visibleBoards(
  boards: readonly BoardListItem[],
  query: string,
): { mine: BoardListItem[]; shared: BoardListItem[] } {
  // Folded as Find folds a board's text: case and accents aside, so "cafe" finds "Café retro".
  const q = foldForFind(query.trim());
  const shown = boards.filter((b) => foldForFind(b.title).includes(q));
  return { mine: shown.filter((b) => b.role === 'owner'), shared: shown.filter((b) => b.role !== 'owner') };
}
