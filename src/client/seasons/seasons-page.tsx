import { CalendarClock, Flag, Plus, Trophy } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { canManageGroup } from '../../domain/policies/group-policy';
import { seasonPodium, type SeasonStanding } from '../../domain/seasons';
import type { SeasonRow } from '../data/db';
import { useSession } from '../data/use-session';
import { rosterOf, useGroup } from '../groups/use-groups';
import { ShareButton } from '../share/share-button';
import { AppPage } from '../shell/app-page';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { Points, signedPoints } from '../ui/points';
import { useNow } from '../ui/use-now';
import { openEndSeasonConfirm } from './end-season-confirm';
import { openStartSeasonSheet } from './start-season-sheet';
import { endsInText, useSeasons, useStandingsSoFar } from './use-seasons';
import styles from './seasons.module.css';

// /group/:id/seasons: the running season with its standings so far (admins end it early here,
// or start the next one) and the archive, each past season with its podium and full standings.
// Read from the mirror, so it opens offline.

const PLACE_LABEL = ['1st', '2nd', '3rd'];
/** +3, −2, 0: won or lost during the season. */
const dateText = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

export function SeasonsPage() {
  const groupId = Number(useParams().id);
  const { user } = useSession();
  const seasons = useSeasons(groupId);
  const group = useGroup(groupId);
  // Who starts and ends seasons: whoever manages the group, the rule the server applies.
  const isAdmin = Boolean(group && user && canManageGroup(rosterOf(group), user.id));
  const groupName = group?.name ?? '';
  const running = seasons?.find((season) => season.state === 'active');
  const past = seasons?.filter((season) => season.state === 'ended') ?? [];

  return (
    <AppPage
      title="Seasons"
      actions={
        isAdmin &&
        seasons &&
        !running && (
          <Button
            size="small"
            icon={<Plus size={16} aria-hidden="true" />}
            onClick={() => openStartSeasonSheet(groupId)}
          >
            Start a season
          </Button>
        )
      }
    >
      {groupName && (
        <p className={styles.groupName}>
          <Link to="/leaderboard">{groupName}</Link>
        </p>
      )}
      {running && <RunningSeason season={running} isAdmin={isAdmin} userId={user?.id} />}
      {seasons && seasons.length === 0 && (
        <Card>
          <EmptyState icon={<Trophy size={26} />} title="No seasons yet">
            {isAdmin
              ? 'Start a season to crown a champion by a date. Its podium stays here for good.'
              : 'When an admin starts a season, it shows here. Its podium stays for good.'}
          </EmptyState>
        </Card>
      )}
      {past.length > 0 && (
        <section aria-labelledby="past-seasons" className={styles.archive}>
          <h2 id="past-seasons" className={styles.sectionTitle}>
            Past seasons
          </h2>
          {past.map((season) => (
            <PastSeason key={season.id} season={season} groupName={groupName} userId={user?.id} />
          ))}
        </section>
      )}
    </AppPage>
  );
}

function RunningSeason({
  season,
  isAdmin,
  userId,
}: {
  season: SeasonRow;
  isAdmin: boolean;
  userId: number | undefined;
}) {
  const now = useNow(60_000);
  const standings = useStandingsSoFar(season);
  return (
    <Card className={styles.running} aria-label={`Running season ${season.name}`}>
      <div className={styles.runningHead}>
        <CalendarClock size={20} aria-hidden="true" />
        <div>
          <h2 className={styles.seasonName}>{season.name}</h2>
          <p className={styles.meta}>
            {endsInText(season.endsAt, now)} · {dateText(season.endsAt)}
            {season.resetPoints && ' · points reset at the end'}
          </p>
        </div>
      </div>
      {standings && standings.length > 0 && (
        <div className={styles.standings}>
          <h3 className={styles.standingsTitle}>Standings so far</h3>
          <StandingsTable
            caption={`${season.name} standings so far`}
            standings={standings}
            userId={userId}
          />
        </div>
      )}
      {isAdmin && season.id > 0 && (
        <div className={styles.actions}>
          <Button
            variant="secondary"
            size="small"
            icon={<Flag size={16} aria-hidden="true" />}
            onClick={() => openEndSeasonConfirm(season)}
          >
            End season now
          </Button>
        </div>
      )}
    </Card>
  );
}

function PastSeason({
  season,
  groupName,
  userId,
}: {
  season: SeasonRow;
  groupName: string;
  userId: number | undefined;
}) {
  const podium = seasonPodium(season, groupName);
  const headingId = `season-${season.id}`;
  return (
    <Card as="article" aria-labelledby={headingId} className={styles.past}>
      <h3 id={headingId} className={styles.seasonName}>
        {season.name}
      </h3>
      <p className={styles.meta}>
        {dateText(season.startsAt)} – {dateText(season.endedAt ?? season.endsAt)}
      </p>
      {podium.places.length === 0 ? (
        <p className={styles.meta}>The standings arrive with the next sync.</p>
      ) : (
        <ol className={styles.podium} aria-label={`${season.name} podium`}>
          {podium.places.map((place) => (
            <li key={place.userId} className={styles[`place${place.rank}`]}>
              <span className={styles.medal}>{PLACE_LABEL[place.rank - 1]}</span>
              <span className={styles.placeName}>{place.name}</span>
              <Points value={place.points} size="small" word="never" isSigned />
            </li>
          ))}
        </ol>
      )}
      {podium.places.length > 0 && (
        <div className={styles.share}>
          <ShareButton
            share={(cards) =>
              cards.shareSeasonPodium(
                podium,
                `${window.location.origin}/group/${season.groupId}/seasons`,
              )
            }
          />
        </div>
      )}
      {season.standings.length > 0 && (
        <details className={styles.standings}>
          <summary>Full standings</summary>
          <StandingsTable
            caption={`${season.name} final standings`}
            standings={season.standings}
            userId={userId}
          />
        </details>
      )}
    </Card>
  );
}

/** Rank, player, what they won or lost in the season, and their total points. */
function StandingsTable({
  caption,
  standings,
  userId,
}: {
  caption: string;
  standings: readonly SeasonStanding[];
  userId: number | undefined;
}) {
  return (
    <table>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Player</th>
          <th scope="col" className={styles.end}>
            Season
          </th>
          <th scope="col" className={styles.end}>
            Total
          </th>
        </tr>
      </thead>
      <tbody>
        {standings.map((standing) => (
          <tr
            key={standing.userId}
            className={standing.userId === userId ? styles.mine : undefined}
          >
            <td>{standing.rank}</td>
            <th scope="row">
              {standing.userName}
              {standing.userId === userId && <span className={styles.you}>You</span>}
            </th>
            <td className={styles.end}>{signedPoints(standing.points)}</td>
            <td className={styles.end}>{standing.totalPoints}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
