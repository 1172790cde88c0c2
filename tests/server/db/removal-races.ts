import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import { betComments, bets } from '../../../src/server/db/schema';
import { betRequest, createBet } from '../bets/bet.factories';
import {
  createGroup,
  createPlayer,
  joinGroup,
  makeAdmin,
  membershipRow,
  uniqueGroupName,
} from '../groups/group.factories';
import { useTestServer, type TestResponse, type TestServer } from '../harness';
import { connectAside, lockWaiters, waitForLockWaiters } from './aside-connection';
import { failuresOf } from './race-helpers';

// A removal or demotion racing requests of the one it ends, on two instances sharing one
// database: the races of db/concurrency.test.ts (which runs them, on PGlite and on PostgreSQL)
// about who may act in a group. The removed or demoted one's requests run on the second
// instance, the admin's on the first. Each request decides under the group's row lock
// (src/server/groups/group-access.ts GROUP_LOCKS, src/server/db/README.md): one that checked
// before the removal or demotion committed must not undo it, or write after it, once it answered.

/** The races, on `server` and a second instance on its database, both with `env`. */
export function describeRemovalRaces(server: TestServer, env: Record<string, string>): void {
  const second = useTestServer(() => ({ env, database: server.database }));
  const TRIALS = 20;
  const OWN_REQUESTS = 6;
  /** Mutations in each pushed race: bets, comments and mutes in turn. */
  const PUSHED = 6;
  /** Groups raced at once behind the gate. */
  const GATED_TRIALS = 3;

  /** An advisory lock's key, for the gate below. */
  const GATE_KEY = 41_041;

  /**
   * Holds every insert into bets and bet_comments (PostgreSQL): a trigger waits for an advisory
   * lock that a connection aside (`aside`) holds until `open()`, which drops the trigger too.
   */
  async function holdInserts() {
    const aside = await connectAside(server);
    await aside.query(`create or replace function hunch_test_gate() returns trigger
      language plpgsql as $$ begin perform pg_advisory_xact_lock_shared(${GATE_KEY}); return new; end $$`);
    for (const table of ['bets', 'bet_comments'])
      await aside.query(`create trigger hunch_test_gate before insert on ${table}
        for each row execute function hunch_test_gate()`);
    await aside.query('begin');
    await aside.query('select pg_advisory_xact_lock($1)', [GATE_KEY]);
    let isOpen = false;
    return {
      aside,
      async open() {
        if (isOpen) return;
        isOpen = true;
        await aside.query('commit');
        for (const table of ['bets', 'bet_comments'])
          await aside.query(`drop trigger if exists hunch_test_gate on ${table}`);
        await aside.end();
      },
    };
  }

  /** `trials` groups of an owner and `subject` (made admin when asked), side by side. */
  async function arrange(subjectIsAdmin: boolean) {
    const [owner, subject] = [await createPlayer(server, 'Owner'), await createPlayer(server)];
    const trials: Group[] = [];
    for (let index = 0; index < TRIALS; index += 1) {
      const group = await createGroup(server, owner, { name: uniqueGroupName('Race') });
      await joinGroup(server, subject, group);
      if (subjectIsAdmin) await makeAdmin(server, owner, group, subject);
      trials.push(group);
    }
    return { owner, subject, trials };
  }

  /** Runs the admin's `end` and the subject's own requests at once in every trial, all trials at once. */
  async function race(
    trials: Group[],
    end: (group: Group) => Promise<TestResponse>,
    own: (group: Group) => Promise<TestResponse>,
    copies = OWN_REQUESTS,
  ) {
    const outcomes = await Promise.all(
      trials.map(async (group) => {
        const [ended, ...mine] = await Promise.all([
          end(group),
          ...Array.from({ length: copies }, () => own(group)),
        ]);
        return { group, ended: ended!, mine };
      }),
    );
    expect(failuresOf(outcomes.flatMap((outcome) => [outcome.ended, ...outcome.mine]))).toEqual([]);
    for (const outcome of outcomes) expect(outcome.ended.status, outcome.ended.text).toBe(200);
    return outcomes;
  }

  describe('a removal or demotion racing requests of the one it ends, on two instances', () => {
    /** A request of the admin's that ends `subject`'s membership or role, and one of `subject`'s own. */
    interface EndingRace {
      name: string;
      subjectIsAdmin: boolean;
      end(group: Group, subject: AuthResponse): [method: string, path: string];
      own(group: Group, subject: AuthResponse): [method: string, path: string, body: unknown];
      /** How the subject's own request is refused once it runs after the end. */
      refusal: string;
      /** The subject's membership at the end. */
      after: Record<string, unknown>;
    }
    const keptOut = { leftAt: expect.any(Date), removedAt: expect.any(Date) };
    const RACES: EndingRace[] = [
      {
        name: 'keeps a removed member out when their own joins were already running',
        subjectIsAdmin: false,
        end: (group, subject) => ['DELETE', `/api/groups/${group.id}/members/${subject.user.id}`],
        own: (group) => ['POST', '/api/groups/join-public', { groupName: group.name }],
        refusal: 'removed_from_group',
        after: keptOut,
      },
      {
        name: 'keeps a demoted admin demoted when their own POST /admins was already running',
        subjectIsAdmin: true,
        end: (group, subject) => ['DELETE', `/api/groups/${group.id}/admins/${subject.user.id}`],
        own: (group, subject) => [
          'POST',
          `/api/groups/${group.id}/admins`,
          { userId: subject.user.id },
        ],
        refusal: 'not_group_admin',
        after: { role: 'member', leftAt: null },
      },
      {
        name: 'keeps a removed admin out when their own POST /members was already running',
        subjectIsAdmin: true,
        end: (group, subject) => ['DELETE', `/api/groups/${group.id}/members/${subject.user.id}`],
        own: (group, subject) => [
          'POST',
          `/api/groups/${group.id}/members`,
          { userId: subject.user.id },
        ],
        refusal: 'not_member',
        after: keptOut,
      },
    ];

    it.each(RACES)('$name', async ({ subjectIsAdmin, end, own, refusal, after }) => {
      const { owner, subject, trials } = await arrange(subjectIsAdmin);
      const outcomes = await race(
        trials,
        (group) => {
          const [method, path] = end(group, subject);
          return server.request(method, path, { token: owner.accessToken });
        },
        (group) => {
          const [method, path, body] = own(group, subject);
          return second.request(method, path, { token: subject.accessToken, body });
        },
      );
      for (const { group, mine } of outcomes) {
        for (const response of mine)
          if (response.status !== 200) expect(response.body.code, response.text).toBe(refusal);
        expect(await membershipRow(server, group, subject.user.id)).toMatchObject(after);
      }
    });
  });

  describe("a removal racing the removed member's own bets and comments, on two instances", () => {
    /** The bets `subject` created in `group` and the comments they posted there, as committed now. */
    async function writesOf(group: Group, subject: AuthResponse) {
      const { db } = server.database;
      const [made] = await db
        .select({ n: count() })
        .from(bets)
        .where(and(eq(bets.groupId, group.id), eq(bets.createdBy, subject.user.id)));
      const [said] = await db
        .select({ n: count() })
        .from(betComments)
        .where(and(eq(betComments.groupId, group.id), eq(betComments.userId, subject.user.id)));
      return { bets: made!.n, comments: said!.n };
    }

    /** Each trial's group with a bet of the owner's to comment on. */
    async function arrangeWithBets() {
      const arranged = await arrange(false);
      const betOf = new Map<number, number>();
      for (const group of arranged.trials)
        betOf.set(group.id, (await createBet(server, arranged.owner, group)).id);
      return { ...arranged, betOf };
    }

    /**
     * Races the owner's removal of `subject` (first instance) with `own` (second), and checks
     * that what `subject` had written in each group when the removal answered is all there is.
     */
    async function removalRace(
      arranged: Awaited<ReturnType<typeof arrangeWithBets>>,
      own: (group: Group, count: number) => Promise<TestResponse>,
      copies: number,
    ) {
      const { owner, subject, trials } = arranged;
      const atRemoval = new Map<number, Awaited<ReturnType<typeof writesOf>>>();
      let sent = 0;
      const outcomes = await race(
        trials,
        (group) =>
          server
            .request('DELETE', `/api/groups/${group.id}/members/${subject.user.id}`, {
              token: owner.accessToken,
            })
            .then(async (answer) => {
              atRemoval.set(group.id, await writesOf(group, subject));
              return answer;
            }),
        (group) => own(group, (sent += 1)),
        copies,
      );
      for (const { group } of outcomes)
        expect(await writesOf(group, subject), `group ${group.id}`).toEqual(
          atRemoval.get(group.id),
        );
      return outcomes;
    }

    const betBody = (group: Group, title: string) => betRequest(server, group, { title });

    it('commits none of their REST bets and comments after the removal answered', async () => {
      const arranged = await arrangeWithBets();
      const token = arranged.subject.accessToken;
      const outcomes = await removalRace(
        arranged,
        (group, sent) =>
          sent % 2
            ? second.request('POST', '/api/bets', { token, body: betBody(group, `Bet ${sent}`) })
            : second.request('POST', `/api/bets/${arranged.betOf.get(group.id)}/comments`, {
                token,
                body: { text: `Comment ${sent}` },
              }),
        OWN_REQUESTS,
      );
      for (const response of outcomes.flatMap((outcome) => outcome.mine))
        if (response.status !== 201) expect(response.body.code, response.text).toBe('not_member');
    });

    it('commits none of their pushed bets, comments and mutes after the removal answered', async () => {
      const arranged = await arrangeWithBets();
      const outcomes = await removalRace(
        arranged,
        (group) => {
          const betId = arranged.betOf.get(group.id)!;
          const mutations = Array.from({ length: PUSHED }, (_, index) => {
            const id = index + 1;
            if (index % 3 === 0)
              return { id, name: 'createBet', args: { body: betBody(group, `Pushed ${id}`) } };
            if (index % 3 === 1)
              return {
                id,
                name: 'postComment',
                args: { params: { id: betId }, body: { text: `Pushed ${id}` } },
              };
            return {
              id,
              name: index % 2 ? 'muteGroup' : 'muteBet',
              args: { params: { id: index % 2 ? group.id : betId }, body: { muted: true } },
            };
          });
          return second.request('POST', '/api/sync/push', {
            token: arranged.subject.accessToken,
            body: { clientGroupID: randomUUID(), clientID: randomUUID(), mutations },
          });
        },
        1,
      );
      for (const [pushed] of outcomes.map((outcome) => outcome.mine)) {
        expect(pushed!.status, pushed!.text).toBe(200);
        const results = pushed!.body.results as Array<{ ok: boolean; error?: { code: string } }>;
        expect(results).toHaveLength(PUSHED);
        for (const result of results) if (!result.ok) expect(result.error?.code).toBe('not_member');
      }
    });

    // The races above show no 5xx and the right refusals, but rarely catch a write between its
    // check and its commit. Here a trigger holds every new bet's and comment's insert (after
    // the write's check, before its commit) until each removal has answered, or is seen waiting
    // for the held write (the write then holds the group's lock, as it must: it checked first).
    // A write that checked on a read the removal's lock did not block commits after the answer.
    it.runIf(process.env.HUNCH_TEST_DB === 'postgres')(
      'commits no REST or pushed write held between its check and its commit after the removal answered',
      async () => {
        const arranged = await arrangeWithBets();
        const { subject, betOf } = arranged;
        const token = subject.accessToken;
        for (const group of arranged.trials.slice(0, GATED_TRIALS)) {
          // One group at a time: the test database's pool has 5 connections, all in use here.
          const gate = await holdInserts();
          try {
            const own = [
              second.request('POST', '/api/bets', { token, body: betBody(group, 'Held bet') }),
              second.request('POST', `/api/bets/${betOf.get(group.id)}/comments`, {
                token,
                body: { text: 'Held comment' },
              }),
              second.request('POST', '/api/sync/push', {
                token,
                body: {
                  clientGroupID: randomUUID(),
                  clientID: randomUUID(),
                  mutations: [
                    { id: 1, name: 'createBet', args: { body: betBody(group, 'Held push') } },
                  ],
                },
              }),
            ];
            await waitForLockWaiters(gate.aside, own.length);
            let atRemoval: Awaited<ReturnType<typeof writesOf>> | undefined;
            const removal = server
              .request('DELETE', `/api/groups/${group.id}/members/${subject.user.id}`, {
                token: arranged.owner.accessToken,
              })
              .then(async (answer) => {
                atRemoval = await writesOf(group, subject);
                return answer;
              });
            // The removal answers, or waits for the held writes (which then hold the group's lock).
            await expect
              .poll(
                async () => atRemoval !== undefined || (await lockWaiters(gate.aside)) > own.length,
                {
                  timeout: 10_000,
                  interval: 20,
                },
              )
              .toBe(true);
            await gate.open();
            const answers = [await removal, ...(await Promise.all(own))];
            expect(failuresOf(answers)).toEqual([]);
            expect(await writesOf(group, subject), `group ${group.id}`).toEqual(atRemoval);
          } finally {
            await gate.open();
          }
        }
      },
    );
  });
}
