// Images this browser is adding to the open board but that are not on it yet: waiting for the
// connection, or uploading. Not shared, so it lives here and not in the Y.Doc; the image shape is
// created only once its upload succeeded, so nobody ever sees a shape pointing at nothing.
import { create } from 'zustand';

export interface PendingImage {
  id: string;
  /** Board rectangle where the image will appear. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** A local object URL of the bytes, for the placeholder. */
  preview: string;
  /** 0–1 while uploading; null while waiting for the connection. */
  progress: number | null;
}

interface ImagesState {
  /** The open board, whose asset URLs image shapes load. */
  boardId: string | null;
  pending: PendingImage[];
  setBoard(boardId: string | null): void;
  add(p: PendingImage): void;
  update(id: string, change: Partial<PendingImage>): void;
  remove(id: string): void;
  clear(): void;
}

export const useImages = create<ImagesState>((set) => ({
  boardId: null,
  pending: [],
  setBoard: (boardId) => set({ boardId }),
  add: (p) => set((s) => ({ pending: [...s.pending.filter((q) => q.id !== p.id), p] })),
  update: (id, change) =>
    set((s) => ({ pending: s.pending.map((p) => (p.id === id ? { ...p, ...change } : p)) })),
  remove: (id) => set((s) => ({ pending: s.pending.filter((p) => p.id !== id) })),
  clear: () => set({ pending: [] }),
}));
