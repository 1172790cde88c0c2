import { Plus, TriangleAlert } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { avatarInitials } from '../../domain/avatar';
import { useSession } from '../data/use-session';
import { openUpgradeModal } from '../profile/account-modals';
import { Avatar } from '../ui/avatar';
import { HeaderGroupSlot } from './header-group-slot';
import { NAV_ITEMS } from './nav-items';
import { useStartBet } from './use-start-bet';
import styles from './app-header.module.css';

// The bell reads Dexie: a lazy chunk, rendered only for a signed-in player.
const InboxBell = lazy(() => import('./inbox-bell').then((m) => ({ default: m.InboxBell })));

export function AppHeader() {
  const { user } = useSession();
  const { pathname } = useLocation();
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        {/* Signed out, /dashboard would only bounce to /login; the title takes visitors home. */}
        {/* Signed in on a phone, the group corner needs the room: the word hides, the mark stays. */}
        <Link
          to={user ? '/dashboard' : '/'}
          className={`${styles.title} ${user ? styles.titleCompact : ''}`}
        >
          <LogoMark />
          <span>Hunch</span>
        </Link>
        {user && <WideNav />}
        <div className={styles.end}>
          {user ? (
            <>
              {user.isTemporary && <TemporaryAccountWarning />}
              <HeaderGroupSlot />
              {/* The fallback keeps the bell's room (its icon stays off the landing page's path). */}
              <Suspense fallback={<span className={styles.bell} aria-hidden="true" />}>
                <InboxBell />
              </Suspense>
              {/* WCAG 2.5.3 (axe label-content-name-mismatch): the name holds what is seen, the
                  initials and the name, in order. The space between them is a text node (a flex
                  container does not draw it), so the seen text reads "MA Maya", not "MAMaya". */}
              <Link
                to="/profile"
                className={styles.profile}
                aria-label={`${avatarInitials(user)} ${user.displayName}, profile`}
              >
                <Avatar user={user} size="small" />{' '}
                <span className={styles.name}>{user.displayName}</span>
              </Link>
            </>
          ) : (
            pathname !== '/continue-as-guest' && (
              <Link to="/login" className={styles.login}>
                Login
              </Link>
            )
          )}
        </div>
      </div>
    </header>
  );
}

function TemporaryAccountWarning() {
  return (
    // The tooltip is visual; the same words are the button's accessible name.
    <button
      type="button"
      className={styles.warning}
      onClick={openUpgradeModal}
      aria-label="Using Temporary Account"
    >
      <TriangleAlert size={22} aria-hidden="true" />
      <span className={styles.tooltip} aria-hidden="true">
        Using Temporary Account
      </span>
    </button>
  );
}

/** On wide screens the footer navigation moves into the header. */
function WideNav() {
  const startBet = useStartBet();
  return (
    <nav className={styles.nav} aria-label="Main">
      {NAV_ITEMS.map(({ to, label, icon: Icon }) => (
        <NavLink
          key={to}
          to={to}
          end={to !== '/group'}
          className={({ isActive }) => `${styles.navLink} ${isActive ? styles.active : ''}`}
        >
          <Icon size={18} aria-hidden="true" />
          {label}
        </NavLink>
      ))}
      <button type="button" className={styles.navBet} onClick={startBet}>
        <Plus size={18} strokeWidth={2.5} aria-hidden="true" />
        Bet
      </button>
    </nav>
  );
}

/** The Hunch mark: a speech-bubble "hunch" with a spark, in the brand colour. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="2" y="2" width="28" height="28" rx="9" fill="var(--color-brand)" />
      <path
        d="M11 9v14M21 9v14M11 16h10"
        stroke="var(--color-on-brand)"
        strokeWidth="3.2"
        strokeLinecap="round"
      />
      <circle
        cx="25.5"
        cy="6.5"
        r="3.5"
        fill="var(--color-accent-mark)"
        stroke="var(--color-bg)"
        strokeWidth="1.5"
      />
    </svg>
  );
}
