// Whom the History panel offers "Undo all of <name>'s changes since…" for (docs/api.md §9): the
// other members who can change the board's content. A viewer cannot, and neither can a commenter:
// comments live in the Store, not in the board's document (§18), and so do votes, which only
// owners and editors cast; their undo would always answer "changed nothing".
// And only those who changed something in the history shown: an author of a version listed, or
// of the edits since the latest version (§12 `unrecordedAuthors`). Everyone who could edit was
// offered it, and a board that twelve guests had only joined listed twelve undos of nothing.
import { canEditBoard, type Member } from '@tandem/shared';

export const undoablePeople = (
  members: readonly Member[],
  meId: string,
  authors: ReadonlySet<string>,
): Member[] => members.filter((m) => m.userId !== meId && canEditBoard(m.role) && authors.has(m.userId));
