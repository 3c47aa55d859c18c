// The Pages panel's own state: whether it is open, which page is being renamed and which was just
// deleted (for its Undo). Outside the editor view, which is made anew for every page shown, so
// the panel stays as it was when a page is chosen.
import { create } from 'zustand';

interface PagesPanelState {
  open: boolean;
  renaming: string | null;
  deleted: string | null;
  toggle(): void;
  close(): void;
  setRenaming(id: string | null): void;
  setDeleted(label: string | null): void;
}

export const usePagesPanel = create<PagesPanelState>((set) => ({
  open: false,
  renaming: null,
  deleted: null,
  toggle: () => set((s) => ({ open: !s.open })),
  close: () => set({ open: false, renaming: null, deleted: null }),
  setRenaming: (renaming) => set({ renaming }),
  setDeleted: (deleted) => set({ deleted }),
}));
