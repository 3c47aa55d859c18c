// Ctrl+Z and Ctrl+Y over two undo histories: the open page's canvas and the board's page list
// (docs/api.md §17). Each keeps its own stack (the Pages panel's Undo acts on the list's only);
// the keys undo whichever change was made last, and redo whichever was undone last, by stamping
// every stack item with a sequence number when it is added or grows.
import type * as Y from 'yjs';

const SEQ = 'joint-undo-seq';
let sequence = 0;

const stamp = (event: { stackItem: { meta: Map<unknown, unknown> } }) => {
  event.stackItem.meta.set(SEQ, ++sequence);
};

const topOf = (stack: { meta: Map<unknown, unknown> }[]): number => {
  const item = stack[stack.length - 1];
  return item ? ((item.meta.get(SEQ) as number | undefined) ?? 0) : -1;
};

export interface JointUndo {
  undo(): void;
  redo(): void;
  /** Whether Undo (Redo) would do anything: a change of this person's is there to undo (redo). */
  canUndo(): boolean;
  canRedo(): boolean;
  /** Calls `fn` whenever either may have changed; returns the unsubscribe (useSyncExternalStore's). */
  subscribe(fn: () => void): () => void;
  destroy(): void;
}

/** The undo managers' events after which their stacks differ. */
const STACK_EVENTS = ['stack-item-added', 'stack-item-popped', 'stack-cleared'] as const;

/** Undo and redo across `managers`, latest change first. */
export function jointUndo(managers: Y.UndoManager[]): JointUndo {
  for (const manager of managers) {
    manager.on('stack-item-added', stamp);
    manager.on('stack-item-updated', stamp);
  }
  const latest = (stack: 'undoStack' | 'redoStack') => {
    let best: Y.UndoManager | null = null;
    let bestSeq = -1;
    for (const manager of managers) {
      const seq = topOf(manager[stack]);
      if (seq > bestSeq) {
        best = manager;
        bestSeq = seq;
      }
    }
    return best;
  };
  return {
    undo: () => latest('undoStack')?.undo(),
    redo: () => latest('redoStack')?.redo(),
    canUndo: () => managers.some((m) => m.undoStack.length > 0),
    canRedo: () => managers.some((m) => m.redoStack.length > 0),
    subscribe(fn) {
      for (const manager of managers) for (const event of STACK_EVENTS) manager.on(event, fn);
      return () => {
        for (const manager of managers) for (const event of STACK_EVENTS) manager.off(event, fn);
      };
    },
    destroy() {
      for (const manager of managers) {
        manager.off('stack-item-added', stamp);
        manager.off('stack-item-updated', stamp);
      }
    },
  };
}
