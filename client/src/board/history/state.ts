// Whether the History panel is open: shared by the top-bar button (and its shortcut) and the panel.
import { create } from 'zustand';

interface HistoryPanelState {
  open: boolean;
  toggle(): void;
  close(): void;
}

export const useHistoryPanel = create<HistoryPanelState>((set) => ({
  open: false,
  toggle: () => set((s) => ({ open: !s.open })),
  close: () => set({ open: false }),
}));
