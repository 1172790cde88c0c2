import { House, Trophy, UserRound, UsersRound, type LucideIcon } from 'lucide-react';

// The four tabs of the app navigation (docs/accounts-and-shell.md §2): the footer on phones, the header on wide
// screens. The central Bet button sits between Leaderboard and Group.
export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

export const NAV_ITEMS: NavItem[] = [
  { to: '/dashboard', label: 'Home', icon: House },
  { to: '/leaderboard', label: 'Leaderboard', icon: Trophy },
  { to: '/group', label: 'Group', icon: UsersRound },
  { to: '/profile', label: 'Profile', icon: UserRound },
];

/** The header is hidden on these (docs/accounts-and-shell.md §2; /move signs a device in, /confirm-email opens a mailed link). */
const AUTH_PATHS = [
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/move',
  '/confirm-email',
];

export const isAuthPath = (pathname: string) =>
  AUTH_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));
