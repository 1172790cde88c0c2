import { Plus } from 'lucide-react';
import { NavLink } from 'react-router-dom';
import { NAV_ITEMS, type NavItem } from './nav-items';
import { useStartBet } from './use-start-bet';
import styles from './footer-nav.module.css';

// The phone navigation: Home, Leaderboard, the raised Bet button, Group, Profile.
export function FooterNav() {
  const startBet = useStartBet();
  const [home, leaderboard, group, profile] = NAV_ITEMS as [NavItem, NavItem, NavItem, NavItem];
  return (
    <nav className={styles.footer} aria-label="Main">
      <Tab item={home} />
      <Tab item={leaderboard} />
      <div className={styles.betSlot}>
        <button type="button" className={styles.bet} onClick={startBet}>
          <Plus size={26} strokeWidth={2.5} aria-hidden="true" />
          <span className={styles.betLabel}>Bet</span>
        </button>
      </div>
      <Tab item={group} />
      <Tab item={profile} />
    </nav>
  );
}

function Tab({ item }: { item: NavItem }) {
  const Icon = item.icon;
  return (
    <NavLink
      to={item.to}
      end={item.to !== '/group'}
      className={({ isActive }) => `${styles.tab} ${isActive ? styles.active : ''}`}
    >
      <Icon size={22} aria-hidden="true" />
      <span>{item.label}</span>
    </NavLink>
  );
}
