// Routes of docs/api.md §2 and the signed-in gate.
import { useEffect } from 'react';
import { safeNext } from './nextPath.ts';
import { SignIn, SignUp } from './pages/Auth.tsx';
import { BoardPage } from './pages/BoardPage.tsx';
import { Dashboard } from './pages/Dashboard.tsx';
import { Join } from './pages/Join.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { PublicView } from './pages/PublicView.tsx';
import { matchRoute, navigate, useLocation } from './router.tsx';
import { useSession } from './session.ts';

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

export function App() {
  const { path } = useLocation();
  const user = useSession((s) => s.user);
  const loaded = useSession((s) => s.loaded);
  const load = useSession((s) => s.load);
  const route = matchRoute(path);
  // A public view asks nobody who they are: its viewers have no session, and asking answered 401
  // (a red console error in every page that embeds the board). The app's other routes ask once.
  const isPublic = route.name === 'public';
  useEffect(() => {
    if (!isPublic && !loaded) void load();
  }, [isPublic, loaded, load]);
  // A public link needs no session at all (docs/api.md §16): no guest name, no sign-in.
  if (route.name === 'public')
    return (
      <PublicView
        token={route.token}
        embed={route.embed}
        frame={new URLSearchParams(location.search).get('frame')}
        page={new URLSearchParams(location.search).get('page')}
      />
    );
  if (!loaded) return <main className="center-page hint">Loading…</main>;

  const signIn = <Redirect to={`/signin?next=${encodeURIComponent(path)}`} />;
  switch (route.name) {
    case 'root':
      return <Redirect to={user ? '/boards' : '/signin'} />;
    case 'signin':
    case 'signup':
      if (user) return <Redirect to={safeNext(new URLSearchParams(location.search).get('next'))} />;
      return route.name === 'signin' ? <SignIn /> : <SignUp />;
    case 'boards':
      return user ? <Dashboard /> : signIn;
    case 'board':
      return user ? <BoardPage boardId={route.boardId} pageId={route.pageId} /> : signIn;
    case 'join':
      return user ? <Join token={route.token} /> : signIn;
    default:
      return <NotFound />;
  }
}
