import { asc, eq, or } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Bet } from '../../../src/domain/bets';
import { openBet, runBetRepeats } from '../../../src/server/bets/bet-repeats';
import { bets } from '../../../src/server/db/schema';
import { betRequest, HOUR } from '../bets/bet.factories';
import { createGroupWithRoles } from '../groups/group.factories';
import { useTestServer, type TestServer } from '../harness';
import { connectAside, waitForLockWaiters } from './aside-connection';
import { failuresOf } from './race-helpers';

// Races of stakes and repeating bets, run by db/concurrency.test.ts on both engines: two
// instances opening the next bet of one series, two transactions inserting one slot, and an
// admin changing the stakes while members create bets.

export function describeStakeRepeatRaces(server: TestServer, env: Record<string, string>): void {
  const second = useTestServer(() => ({ env, database: server.database }));

  async function weeklyBet(): Promise<{ first: Bet; creator: { accessToken: string } }> {
    const { group, member } = await createGroupWithRoles(server);
    const response = await server.request<Bet>('POST', '/api/bets', {
      token: member.accessToken,
      body: betRequest(server, group, {
        expiresAt: new Date(server.clock.now().getTime() + HOUR).toISOString(),
        repeat: { every: 'week' },
      }),
    });
    expect(response.status, response.text).toBe(201);
    return { first: response.body, creator: member };
  }

  const seriesOf = (first: Pick<Bet, 'id'>) =>
    server.database.db
      .select()
      .from(bets)
      .where(or(eq(bets.id, first.id), eq(bets.repeatOf, first.id)))
      .orderBy(asc(bets.id));

  describe('a repeating bet closing on two instances at once', () => {
    it('opens its next slot once', async () => {
      const { first } = await weeklyBet();
      // Both instances' clocks past the close (they share the database, not the clock).
      server.clock.advance(2 * HOUR);
      second.clock.advance(2 * HOUR);
      const [one, other] = await Promise.all([
        runBetRepeats({ db: server.database.db, events: server.app.events }, server.clock.now()),
        runBetRepeats({ db: second.database.db, events: second.app.events }, second.clock.now()),
      ]);
      const opened = [...one, ...other].filter((bet) => bet.repeatOf === first.id);
      expect(opened.map((bet) => bet.repeatSlot)).toEqual([1]);
      expect((await seriesOf(first)).map((bet) => bet.repeatSlot)).toEqual([null, 1]);
    });

    it('keeps one bet per slot when two transactions insert it, the second waiting on the first', async () => {
      const { first } = await weeklyBet();
      const [row] = await seriesOf(first);
      const slot = {
        groupId: row!.groupId,
        title: row!.title,
        description: row!.description,
        betType: row!.betType,
        betTypeConfig: row!.betTypeConfig,
        baseWagerAmount: row!.baseWagerAmount,
        expiresAt: new Date(row!.expiresAt.getTime() + 7 * 24 * HOUR),
        createdBy: row!.createdBy,
        repeatOf: first.id,
        repeatSlot: 1,
      };
      const at = server.clock.now();
      if (process.env.HUNCH_TEST_DB !== 'postgres') {
        // One connection: one after another, the second finds the slot taken.
        const made = await server.database.db.transaction((tx) => openBet(tx, slot, at));
        const again = await server.database.db.transaction((tx) => openBet(tx, slot, at));
        expect([made !== null, again]).toEqual([true, null]);
        return;
      }
      // The first transaction holds its insert uncommitted until the second waits on it.
      const aside = await connectAside(server);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let isInserted = false;
      try {
        const firstInsert = server.database.db.transaction(async (tx) => {
          const made = await openBet(tx, slot, at);
          isInserted = true;
          await held;
          return made;
        });
        await expect.poll(() => isInserted).toBe(true);
        const secondInsert = second.database.db.transaction((tx) => openBet(tx, slot, at));
        await waitForLockWaiters(aside, 1);
        release();
        const results = await Promise.all([firstInsert, secondInsert]);
        expect(results.filter((made) => made !== null)).toHaveLength(1);
      } finally {
        release();
        await aside.end();
      }
      expect((await seriesOf(first)).map((bet) => bet.repeatSlot)).toEqual([null, 1]);
    });
  });

  describe('stakes changed while members create bets', () => {
    it('takes each bet with a base of the tiers it met, refuses the others, and never answers 5xx', async () => {
      const { group, creator, admin, member } = await createGroupWithRoles(server);
      const responses = await Promise.all([
        server.request('PATCH', `/api/groups/${group.id}`, {
          token: admin.accessToken,
          body: { stakeTiers: [5, 10, 15] },
        }),
        ...[1, 5, 2, 10, 3, 15].map((base, index) =>
          (index % 2 ? second : server).request<Bet & { code?: string }>('POST', '/api/bets', {
            token: (index % 3 ? member : creator).accessToken,
            body: betRequest(server, group, { baseWagerAmount: base }),
          }),
        ),
      ]);
      expect(failuresOf(responses)).toEqual([]);
      const [patched, ...created] = responses;
      expect(patched!.status).toBe(200);
      for (const response of created) {
        expect([201, 422]).toContain(response.status);
        if (response.status === 422) expect(response.body.code).toBe('base_not_in_tiers');
      }
      // Every bet in the group has a base of one set or the other, never a mix refused wrongly.
      const made = await server.database.db.select().from(bets).where(eq(bets.groupId, group.id));
      for (const bet of made) expect([1, 2, 3, 5, 10, 15]).toContain(bet.baseWagerAmount);
      // The bigger bases were refused only before the change committed; afterwards they all pass.
      const after = await server.request<Bet>('POST', '/api/bets', {
        token: member.accessToken,
        body: betRequest(server, group, { baseWagerAmount: 15 }),
      });
      expect(after.status).toBe(201);
    });
  });
}
