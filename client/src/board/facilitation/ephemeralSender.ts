// This user's side of the laser pointer, cursor chat and reactions (docs/api.md §14): it turns pointer
// moves and keys into the presence fields `laser`, `chat` and `reaction`, which go out through
// the presence flush (at most `limits.cursorPerSecond` a second), and keeps what this user sees of
// their own: the trail, the bubble, the last reaction. Nothing here touches the document.
import { CHAT_KEEP_MS, MAX_CHAT_CHARS } from '@tandem/shared';
import type { LocalPresence } from '../presence/localPresence.ts';
import { useEditor } from '../store.ts';
import {
  addLaserPoint,
  LASER_FADE_MS,
  type LaserPoint,
  nextReaction,
  REACTION_FLOAT_MS,
} from './ephemeral.ts';

type Point = { x: number; y: number };

export interface OwnEphemeral {
  /** The last pointer position on the canvas (board units), or null before the first move. */
  pointer: Point | null;
  /** My laser trail; `receivedAt` is when its newest point was taken (`performance.now()`). */
  trail: { points: LaserPoint[]; receivedAt: number } | null;
  /** My cursor chat bubble: `open` while I type in it, then shown until it is gone. */
  chat: { open: boolean; text: string } | null;
  reaction: { emoji: string; at: number } | null;
}

export class EphemeralSender {
  private state: OwnEphemeral = { pointer: null, trail: null, chat: null, reaction: null };
  private listeners = new Set<() => void>();
  private laserTimer: ReturnType<typeof setTimeout> | null = null;
  private chatTimer: ReturnType<typeof setTimeout> | null = null;
  private reactionTimer: ReturnType<typeof setTimeout> | null = null;
  private stops: (() => void)[] = [];

  constructor(
    private readonly presence: LocalPresence,
    private readonly now: () => number = Date.now,
  ) {
    this.stops.push(presence.watchPointer((p) => this.onPointer(p)));
    this.stops.push(
      useEditor.subscribe((s, prev) => {
        if (prev.tool === 'laser' && s.tool !== 'laser') this.clearLaser();
      }),
    );
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  getSnapshot = (): OwnEphemeral => this.state;

  private set(patch: Partial<OwnEphemeral>): void {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
  }

  private onPointer(p: Point | null): void {
    if (!p) return;
    const laser = useEditor.getState().tool === 'laser';
    // The pointer is kept for the bubble and reactions; re-rendered only when something shows it.
    if (laser || this.state.chat) this.set({ pointer: p });
    else this.state = { ...this.state, pointer: p };
    if (!laser) return;
    const t = this.now();
    const points = addLaserPoint(this.state.trail?.points ?? [], p.x, p.y, t);
    this.presence.setEphemeral({ laser: { points } });
    this.set({ trail: { points, receivedAt: performance.now() } });
    if (this.laserTimer) clearTimeout(this.laserTimer);
    this.laserTimer = setTimeout(() => this.clearLaser(), LASER_FADE_MS);
  }

  private clearLaser(): void {
    if (this.laserTimer) clearTimeout(this.laserTimer);
    this.laserTimer = null;
    if (!this.state.trail) return;
    this.presence.setEphemeral({ laser: null });
    this.set({ trail: null });
  }

  // --- cursor chat: `/` opens, typing shows live, Enter keeps it CHAT_KEEP_MS, Escape closes ---

  private keepChatFor(ms: number): void {
    if (this.chatTimer) clearTimeout(this.chatTimer);
    this.chatTimer = setTimeout(() => this.closeChat(), ms);
  }

  openChat(): void {
    if (this.state.chat?.open) return;
    this.presence.setEphemeral({ chat: '' });
    this.set({ chat: { open: true, text: '' } });
    this.keepChatFor(CHAT_KEEP_MS);
  }

  typeChat(text: string): void {
    if (!this.state.chat?.open) return;
    const clipped = text.slice(0, MAX_CHAT_CHARS);
    this.presence.setEphemeral({ chat: clipped });
    this.set({ chat: { open: true, text: clipped } });
    this.keepChatFor(CHAT_KEEP_MS);
  }

  /** Enter: the bubble stops taking keys and stays up to CHAT_KEEP_MS; an empty one just closes. */
  sendChat(): void {
    const chat = this.state.chat;
    if (!chat) return;
    if (chat.text.trim() === '') {
      this.closeChat();
      return;
    }
    this.set({ chat: { open: false, text: chat.text } });
    this.keepChatFor(CHAT_KEEP_MS);
  }

  closeChat(): void {
    if (this.chatTimer) clearTimeout(this.chatTimer);
    this.chatTimer = null;
    if (!this.state.chat) return;
    this.presence.setEphemeral({ chat: null });
    this.set({ chat: null });
  }

  // --- reactions -------------------------------------------------------------------------------

  /** Sends a reaction; answers false when it comes too soon after the previous one. */
  react(emoji: string): boolean {
    const reaction = nextReaction(emoji, this.now(), this.state.reaction?.at ?? null);
    if (!reaction) return false;
    this.presence.setEphemeral({ reaction });
    this.set({ reaction });
    if (this.reactionTimer) clearTimeout(this.reactionTimer);
    // Cleared once it has floated away, so someone arriving later does not see it again.
    this.reactionTimer = setTimeout(() => {
      this.reactionTimer = null;
      this.presence.setEphemeral({ reaction: null });
      this.set({ reaction: null });
    }, REACTION_FLOAT_MS);
    return true;
  }

  stop(): void {
    for (const stop of this.stops) stop();
    for (const t of [this.laserTimer, this.chatTimer, this.reactionTimer]) if (t) clearTimeout(t);
    this.listeners.clear();
  }
}
