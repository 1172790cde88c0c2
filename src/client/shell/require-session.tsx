import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSession } from '../data/use-session';

/** The signed-in guard (docs/accounts-and-shell.md §2): a visitor goes to /login?returnUrl=<where they were going>. */
export function RequireSession() {
  const { user, signedOutBy } = useSession();
  const location = useLocation();
  // Having just pressed Logout is not trying to reach this page: plain /login, no way back.
  if (!user && signedOutBy === 'user') return <Navigate to="/login" replace />;
  // A deleted account has nothing to sign in to: the landing page, where the toast says so.
  if (!user && signedOutBy === 'deleted') return <Navigate to="/landing" replace />;
  if (!user) {
    const returnUrl = location.pathname + location.search + location.hash;
    return <Navigate to={`/login?returnUrl=${encodeURIComponent(returnUrl)}`} replace />;
  }
  return <Outlet />;
}

/** "/": signed in → /dashboard, else → /landing. */
export function HomeRedirect() {
  const { user } = useSession();
  return <Navigate to={user ? '/dashboard' : '/landing'} replace />;
}
