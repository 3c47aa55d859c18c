import { Link } from '../router.tsx';

export function NotFound({ what = 'There is no page at this address.' }: { what?: string }) {
  return (
    <main className="center-page">
      <div className="card">
        <p className="big">404</p>
        <h1>Not found</h1>
        <p>{what}</p>
        <Link className="btn primary" href="/">
          Take me back
        </Link>
      </div>
    </main>
  );
}
