// Where a change to a room's doc came from, as the origin of its Yjs transaction. One tagged
// union, and one function (routeOf) that says what the room does with a change of each kind:
// whom it is relayed to, whether this instance stores it, whether it is published to the others,
// and who it is attributed to. Every transaction on a room's doc carries one of these.
import * as Y from 'yjs';
import type { Peer } from './peer.ts';

export type TransactionOrigin =
  /** A client's edit over its connection. */
  | { readonly kind: 'peer'; readonly peer: Peer }
  /** A change the server makes on a user's behalf (a restore, a revert, an integration's write). */
  | { readonly kind: 'server'; readonly userId: string }
  /** The board as stored, applied when the room opens. */
  | { readonly kind: 'load' }
  /** An update another instance relayed: held until that instance confirms it stored it. */
  | { readonly kind: 'bus' }
  /**
   * A bus message (a relayed update, a sync reply, a catch-up) applied while client updates wait
   * in the doc for missing dependencies: the transaction may integrate those waiting client
   * structs too, which reached no other instance and no store, so it is stored and published like
   * a client's (duplicates are harmless in Yjs).
   */
  | { readonly kind: 'bus-resolving' }
  /** A sync reply: a difference from wherever; stored by this instance, not published. */
  | { readonly kind: 'sync-reply' }
  /**
   * What a catch-up read from the Store and this room lacked: sent to this room's clients,
   * neither stored again nor published (each instance that may lack it catches up itself).
   */
  | { readonly kind: 'catch-up' };

export const LOAD: TransactionOrigin = { kind: 'load' };
export const BUS: TransactionOrigin = { kind: 'bus' };
export const BUS_RESOLVING: TransactionOrigin = { kind: 'bus-resolving' };
export const SYNC_REPLY: TransactionOrigin = { kind: 'sync-reply' };
export const CATCH_UP: TransactionOrigin = { kind: 'catch-up' };

/** One origin and one route per connection, made once: they are used for every update it sends. */
const peerOrigins = new WeakMap<Peer, TransactionOrigin>();
const peerRoutes = new WeakMap<Peer, Route>();

export function fromPeer(peer: Peer): TransactionOrigin {
  let origin = peerOrigins.get(peer);
  if (!origin) {
    origin = { kind: 'peer', peer };
    peerOrigins.set(peer, origin);
  }
  return origin;
}
export const onBehalfOf = (userId: string): TransactionOrigin => ({ kind: 'server', userId });

/** What a room does with a change, by where it came from. */
export interface Route {
  /** The peer that sent it (it has it already), or null: every peer gets it. */
  readonly sender: Peer | null;
  /**
   * 'here': queued for this instance's Store; 'held': another instance stores it (this one
   * holds it until confirmed); 'stored': in the Store already; 'none': the stored board itself.
   */
  readonly storage: 'here' | 'held' | 'stored' | 'none';
  /** Published to the other instances (when there are any). */
  readonly publish: boolean;
  /** Who the change is attributed to in the Store and in history. */
  readonly userId: string | null;
}

const relayed = (storage: Route['storage'], publish: boolean): Route => ({
  sender: null,
  storage,
  publish,
  userId: null,
});
const ROUTES = {
  load: relayed('none', false),
  bus: relayed('held', false),
  'bus-resolving': relayed('here', true),
  'sync-reply': relayed('here', false),
  'catch-up': relayed('stored', false),
} as const;

export function routeOf(origin: TransactionOrigin): Route {
  switch (origin.kind) {
    case 'peer': {
      let route = peerRoutes.get(origin.peer);
      if (!route) {
        route = { sender: origin.peer, storage: 'here', publish: true, userId: origin.peer.userId };
        peerRoutes.set(origin.peer, route);
      }
      return route;
    }
    case 'server':
      return { sender: null, storage: 'here', publish: true, userId: origin.userId };
    default:
      return ROUTES[origin.kind];
  }
}

/** Y.applyUpdate, typed so that every update applied to a room's doc says where it came from. */
export function applyUpdate(doc: Y.Doc, update: Uint8Array, origin: TransactionOrigin): void {
  Y.applyUpdate(doc, update, origin);
}

/** Y.Doc.transact, typed so that every transaction on a room's doc says where it came from. */
export function transact(
  doc: Y.Doc,
  change: (transaction: Y.Transaction) => void,
  origin: TransactionOrigin,
): void {
  doc.transact(change, origin);
}
