import { ArrowLeft, Check, Plus, Search, UserPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { searchGroupsByName } from '../../domain/groups';
import { useActiveGroup } from '../data/use-active-group';
import { useSession } from '../data/use-session';
import { Button } from '../ui/button';
import { PendingBadge } from '../ui/pending-badge';
import { Points } from '../ui/points';
import { Spinner } from '../ui/spinner';
import { chooseActiveGroup } from './group-actions';
import { GroupForm } from './group-form';
import { JoinGroupForm } from './join-group-form';
import { useMyGroups, type MyGroup } from './use-groups';
import styles from './group-selector.module.css';

// The group selector modal of docs/groups-and-bets.md §2: search my groups by name (case-insensitive
// substring), a 22rem list where choosing a group makes it active, and Join and Create,
// whose forms open inside the same modal.

const TEXT = {
  search: 'Search my groups',
  searchPlaceholder: 'Search by name',
  none: "You're not in any group yet. Join one or start your own.",
  noMatch: 'No group matches that name.',
  join: 'Join',
  create: 'Create',
  back: 'Back to my groups',
  joinTitle: 'Join a group',
  createTitle: 'Create a group',
  active: 'Active',
};

type View = 'list' | 'join' | 'create';

export function GroupSelector({ onDone }: { onDone: () => void }) {
  const [view, setView] = useState<View>('list');
  const navigate = useNavigate();
  if (view === 'list')
    return (
      <GroupList
        onChosen={onDone}
        onJoin={() => setView('join')}
        onCreate={() => setView('create')}
      />
    );
  return (
    <div className={styles.subview}>
      <button type="button" className={styles.back} onClick={() => setView('list')}>
        <ArrowLeft size={18} aria-hidden="true" />
        {TEXT.back}
      </button>
      <h3 className={styles.subtitle}>{view === 'join' ? TEXT.joinTitle : TEXT.createTitle}</h3>
      {view === 'join' ? (
        <JoinGroupForm onJoined={onDone} />
      ) : (
        <GroupForm
          onCreated={() => {
            onDone();
            navigate('/group');
          }}
        />
      )}
    </div>
  );
}

function GroupList({
  onChosen,
  onJoin,
  onCreate,
}: {
  onChosen: () => void;
  onJoin: () => void;
  onCreate: () => void;
}) {
  const searchId = useId();
  const { user } = useSession();
  const active = useActiveGroup();
  const groups = useMyGroups(user?.id);
  const [query, setQuery] = useState('');
  const shown = groups ? filterGroups(groups, query) : undefined;

  const choose = ({ group, membership }: MyGroup) => {
    chooseActiveGroup({
      id: group.id,
      name: group.name,
      availablePoints: membership.availablePoints,
    });
    onChosen();
  };

  return (
    <div className={styles.selector}>
      <div className={styles.search}>
        <label htmlFor={searchId} className="visually-hidden">
          {TEXT.search}
        </label>
        <Search size={18} aria-hidden="true" className={styles.searchIcon} />
        <input
          id={searchId}
          type="search"
          className={styles.searchInput}
          placeholder={TEXT.searchPlaceholder}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
        />
      </div>
      <div className={styles.list} aria-live="polite">
        {!shown ? (
          <div className={styles.message}>
            <Spinner label="Loading your groups" />
          </div>
        ) : shown.length === 0 ? (
          <p className={styles.message}>{groups!.length === 0 ? TEXT.none : TEXT.noMatch}</p>
        ) : (
          <ul className={styles.items} aria-label="My groups">
            {shown.map((item) => {
              const isActive = active?.id === item.group.id;
              return (
                <li key={item.group.id}>
                  <button
                    type="button"
                    className={styles.item}
                    aria-current={isActive ? 'true' : undefined}
                    onClick={() => choose(item)}
                  >
                    <span className={styles.itemAvatar} aria-hidden="true">
                      {item.group.name.slice(0, 1).toUpperCase()}
                    </span>
                    <span className={styles.itemText}>
                      <span className={styles.itemName}>{item.group.name}</span>
                      <Points value={item.membership.availablePoints} size="small" />
                      <PendingBadge
                        row={item.group.pendingWriteId ? item.group : item.membership}
                      />
                    </span>
                    {isActive && (
                      <span className={styles.activeMark}>
                        <Check size={16} aria-hidden="true" />
                        {TEXT.active}
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <div className={styles.actions}>
        <Button
          variant="secondary"
          icon={<UserPlus size={18} aria-hidden="true" />}
          onClick={onJoin}
        >
          {TEXT.join}
        </Button>
        <Button icon={<Plus size={18} aria-hidden="true" />} onClick={onCreate}>
          {TEXT.create}
        </Button>
      </div>
    </div>
  );
}

function filterGroups(groups: MyGroup[], query: string): MyGroup[] {
  const matches = new Set(
    searchGroupsByName(
      groups.map((item) => item.group),
      query,
    ),
  );
  return groups.filter((item) => matches.has(item.group));
}
