// Whom the History panel offers "Undo all of <name>'s changes since…" for (docs/api.md §9): the
// other members who can change the board's content. A viewer cannot, and neither can a commenter:
// comments live in the Store, not in the board's document (§18), and so do votes, which only
// owners and editors cast; their undo would always answer "changed nothing".
import { canEditBoard, type Member } from '@tandem/shared';

export const undoablePeople = (members: readonly Member[], meId: string): Member[] =>
  members.filter((m) => m.userId !== meId && canEditBoard(m.role));
