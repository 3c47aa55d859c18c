// Something to do on a page just opened once its content has come from the server: presenting's
// step onto another page shows its frame then, and Find carried onto a page shows its first match.
import type { BoardSession } from './provider.ts';

/**
 * Calls `then` once the page's content has come from the server, after the editor's own first
 * fit (which runs on the same sync, or on the local copy): anything shown before it would be
 * undone by the fit. Answers a cancel.
 */
export function afterLoad(session: Pick<BoardSession, 'provider'>, then: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arrive = () => {
    timer = setTimeout(then, 0);
  };
  const onSync = (synced: boolean) => {
    if (!synced) return;
    session.provider.off('sync', onSync);
    arrive();
  };
  if (session.provider.synced) arrive();
  else session.provider.on('sync', onSync);
  return () => {
    session.provider.off('sync', onSync);
    if (timer) clearTimeout(timer);
  };
}
