import { Search, Ticket } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import {
  betsMissingResolvedAt,
  searchBets,
  sortActiveBets,
  sortResolvedBets,
} from '../../domain/bet-lists';
import { useSession } from '../data/use-session';
import { EmptyState } from '../ui/empty-state';
import { Spinner } from '../ui/spinner';
import { BetSummaryCard } from './bet-summary-card';
import { useGroupBets } from './use-bets';
import { useGroupCommentCounts } from './use-comments';
import styles from './bet-list.module.css';

// docs/groups-and-bets.md §2 "Bet list (group view)": tabs Active and Resolved, the search box, at most 3
// per tab in the group view (`limit`), all of them on /group/{id}/bets; "No Bets". Drawn from
// the mirror, which holds every bet of the player's groups (readable offline, kept fresh by pulls).

const BET_LIST_TEXT = {
  active: 'Active',
  resolved: 'Resolved',
  search: 'Search bets by title...',
  searchLabel: 'Search bets',
  noBets: 'No Bets',
  noBetsHint: 'When someone in the group starts a bet, it shows up here. Tap Bet to start one.',
  noMatches: 'No bets match your search.',
};

type Tab = 'active' | 'resolved';

/** `headingLevel`: the bets' titles sit under the page's h1 (h2) or under a section's h2 (h3). */
export function BetList({
  groupId,
  limit,
  headingLevel = 'h3',
}: {
  groupId: number;
  limit?: number;
  headingLevel?: 'h2' | 'h3';
}) {
  const { user } = useSession();
  const data = useGroupBets(groupId, user?.id);
  const [tab, setTab] = useState<Tab>('active');
  const [query, setQuery] = useState('');
  const id = useId();

  const bets = data?.bets ?? [];
  const resolved = bets.filter((bet) => bet.state === 'resolved');
  useEffect(() => {
    // docs/groups-and-bets.md §4: resolved bets without resolvedAt are listed last and logged.
    const missing = betsMissingResolvedAt(resolved);
    if (missing.length > 0)
      console.warn(
        'Resolved bets without resolvedAt',
        missing.map((bet) => bet.id),
      );
  }, [resolved.length]); // eslint-disable-line react-hooks/exhaustive-deps -- log once per count, not per render
  const sorted =
    tab === 'active'
      ? sortActiveBets(bets.filter((bet) => bet.state === 'active'))
      : sortResolvedBets(resolved);
  const found = searchBets(sorted, query);
  const shown = limit === undefined ? found : found.slice(0, limit);
  const commentCounts = useGroupCommentCounts(groupId);

  return (
    <div className={styles.list}>
      <div className={styles.controls}>
        <div role="tablist" aria-label="Bets" className={styles.tabs}>
          {(['active', 'resolved'] as const).map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`${id}-${name}`}
              aria-selected={tab === name}
              aria-controls={`${id}-panel`}
              className={styles.tab}
              onClick={() => setTab(name)}
            >
              {name === 'active' ? BET_LIST_TEXT.active : BET_LIST_TEXT.resolved}
            </button>
          ))}
        </div>
        <label className={styles.search}>
          <Search size={16} aria-hidden="true" />
          <span className="visually-hidden">{BET_LIST_TEXT.searchLabel}</span>
          <input
            type="search"
            placeholder={BET_LIST_TEXT.search}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </label>
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${tab}`}>
        {data === undefined ? (
          <div className={styles.loading}>
            <Spinner size="medium" label="Loading bets" />
          </div>
        ) : shown.length === 0 ? (
          <EmptyState
            icon={<Ticket size={24} />}
            title={BET_LIST_TEXT.noBets}
            headingLevel={headingLevel}
          >
            {query.trim() && sorted.length > 0 ? BET_LIST_TEXT.noMatches : BET_LIST_TEXT.noBetsHint}
          </EmptyState>
        ) : (
          <ul className={styles.items}>
            {shown.map((bet) => (
              <BetSummaryCard
                key={bet.id}
                bet={bet}
                wager={data.wagers.get(bet.id)}
                commentCount={commentCounts && (commentCounts.get(bet.id) ?? 0)}
                headingLevel={headingLevel}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
