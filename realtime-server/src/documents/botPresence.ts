// The presence of the writers that are not connections (docs/api.md §15): while an integration
// works, the room shows a cursor labelled "<name> (bot)" where it last wrote, owned by the server
// (RoomPresence.setOwned), relayed to every client here and on the other instances like any
// presence, and gone once the bot has been quiet for a while.
import { BOT_PRESENCE_TOOL, botLabel, presenceDefaults, type Role } from '@tandem/shared';
import type { PresenceOwner, RoomPresence } from './presence.ts';

export interface BotIdentity {
  userId: string;
  name: string;
  color: string;
  role: Role;
}

interface Shown {
  owner: PresenceOwner;
  clientId: number;
  timer: NodeJS.Timeout;
}

export class BotPresence {
  private readonly shown = new Map<string, Shown>();

  constructor(
    private readonly presence: RoomPresence,
    private readonly keepMs: number,
  ) {}

  /** Shows the bot's cursor at (x, y) with `selection` selected, for the next `keepMs`. */
  show(bot: BotIdentity, at: { x: number; y: number }, selection: string[]): void {
    let shown = this.shown.get(bot.userId);
    if (shown) clearTimeout(shown.timer);
    else {
      const owner: PresenceOwner = {
        userId: bot.userId,
        user: { id: bot.userId, name: botLabel(bot.name), color: bot.color },
        role: bot.role,
        clientIds: new Set(),
      };
      // Yjs client ids are 32-bit; a random one for the bot, like a new browser tab would draw.
      shown = {
        owner,
        clientId: Math.floor(Math.random() * 0xffffffff),
        timer: setTimeout(() => undefined, 0),
      };
      this.shown.set(bot.userId, shown);
    }
    const current = shown;
    this.presence.setOwned(current.owner, current.clientId, {
      ...presenceDefaults,
      selection: selection.slice(0, 100),
      viewport: { ...presenceDefaults.viewport },
      cursor: at,
      tool: BOT_PRESENCE_TOOL,
    });
    current.timer = setTimeout(() => this.hide(bot.userId), this.keepMs);
    current.timer.unref();
  }

  /** Removes the bot's cursor (it went quiet, or lost its access). */
  hide(userId: string): void {
    const shown = this.shown.get(userId);
    if (!shown) return;
    clearTimeout(shown.timer);
    this.shown.delete(userId);
    this.presence.removeOwner(shown.owner);
  }

  close(): void {
    for (const userId of [...this.shown.keys()]) this.hide(userId);
  }
}
