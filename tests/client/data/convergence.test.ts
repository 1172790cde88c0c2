// @vitest-environment node
import '../node-browser';
import { expect, it, vi } from 'vitest';
import {
  addBackMemberMutator,
  joinPrivateGroupMutator,
  joinPublicGroupMutator,
  leaveGroupMutator,
  rotateInviteCodeMutator,
} from '../../../src/client/data/group-mutators';
import {
  cancelBetMutator,
  createBetMutator,
  placeWagerMutator,
  resolveBetMutator,
  updateWagerMutator,
} from '../../../src/client/data/bet-mutators';
import type { BetRow } from '../../../src/client/data/db';
import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import {
  DAY,
  expireDueBets,
  expiresIn,
  HOUR,
  NO_EXPIRY_TIMER,
} from '../../server/bets/bet.factories';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { useTestServer } from '../../server/harness';
import { random } from '../../perf/lib/http';
import { openDevice, snapshotOf, type Device } from './device.fixture';

// Convergence: several devices, each running the real sync engine, outbox and realtime over a
// real socket.io connection, make a seeded random mix of writes (bets, wagers and changed
// wagers, resolutions, cancellations, leaving and rejoining, an admin adding back a player the
// server's side removed, a new invite code) while the server's side removes
// members and expires bets, with random socket drops, offline stretches, one server restart
// halfway, and crashes between a pushed write's commit and its answer: the server loses the
// answer and the write's events (the commit hook throws, as tests/server/sync/push-crash.test.ts
// does with a real SIGKILL of a child process) and restarts on the same data, so the device
// sends the write again. At the end every device's mirror equals what a fresh device of the
// same player pulls from nothing, table by table, and every write the server accepted is there
// exactly once. The seed is printed on failure (HUNCH_SEED=… to replay). Runs on PGlite, and
// on PostgreSQL as the convergence-postgres project when TEST_DATABASE_URL is set.

const STEPS = 80;

// The devices live across a server restart and the test closes them itself, so it opens them
// with openDevice(server, …); the server reads through to the restarted one (same port).
/** The next pushed write to commit dies before its answer; then whether one has. */
const crash = { isPlanned: false, hasHappened: false };
const server = useTestServer({
  ...NO_EXPIRY_TIMER,
  afterPushCommit: () => {
    if (!crash.isPlanned) return;
    crash.isPlanned = false;
    crash.hasHappened = true;
    throw new Error('The server died between the commit and the answer (a test crash).');
  },
});
/** The devices whose network is down right now. */
const devicesOffline = new Set<Device>();

it('every device ends with the server’s view of its player, each accepted write once', async () => {
  const seed = Number(process.env.HUNCH_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const devices: Device[] = [];
  try {
    const players: AuthResponse[] = [
      await createPlayer(server, 'Ann'),
      await createPlayer(server, 'Ben'),
      await createPlayer(server, 'Cat'),
    ];
    const groups: Group[] = [
      await createGroup(server, players[0]!),
      await createGroup(server, players[1]!),
      await createGroup(server, players[2]!, { privacy: 'private' }),
    ];
    for (const player of players)
      for (const group of groups)
        if (group.createdByUserId !== player.user.id) await joinGroup(server, player, group);
    for (const player of players) {
      const device = await openDevice(server, player, { withSocket: true });
      devices.push(device);
      device.local.start();
    }
    await Promise.all(
      devices.map((device) =>
        vi.waitFor(() => expect(device.socket!.getSnapshot().status).toBe('connected'), {
          timeout: 5000,
        }),
      ),
    );
    const titles = new Set<string>();
    let crashes = 0;
    /** A private group's invite code now, as its creator reads it (a rejoin needs it). */
    const inviteCodeOf = async (group: Group): Promise<string> => {
      const creator = players.find((player) => player.user.id === group.createdByUserId)!;
      const read = await server.request('GET', `/api/groups/${group.id}`, {
        token: creator.accessToken,
      });
      return (read.body as Group).inviteCode ?? '';
    };

    for (let step = 0; step < STEPS; step += 1) {
      if (step === STEPS / 2) await server.restart();
      // A crash on the next write's commit (whichever device's flush it is); surely one early.
      if (step === 5 || next() < 0.06) crash.isPlanned = true;
      const device = pick(devices);
      const userId = device.session.user!.id;
      const roll = next();
      const bets: BetRow[] = await device.db.bets.toArray();
      const active = bets.filter((bet) => bet.state === 'active');
      if (roll < 0.12) {
        device.setOffline(!devicesOffline.has(device));
        if (devicesOffline.has(device)) devicesOffline.delete(device);
        else devicesOffline.add(device);
        if (!devicesOffline.has(device)) await device.local.sync();
      } else if (roll < 0.32) {
        const title = `Bet ${seed}-${step}`;
        titles.add(title);
        const groupId = pick(groups).id;
        // Some close within the hour, so the expiry job below can take them.
        const expiresAt = expiresIn(server, pick([HOUR, DAY]));
        await device.local
          .run(createBetMutator, {
            tempId: device.local.outbox.tempId(),
            request: {
              title,
              betType: 'yes_no',
              betTypeConfig: {},
              baseWagerAmount: 1,
              expiresAt,
              groupId,
            },
          })
          .catch(() => undefined);
      } else if (roll < 0.72 && active.length > 0) {
        const bet = pick(active);
        const mine = await device.db.wagers
          .where('[betId+userId]')
          .equals([bet.id, userId])
          .first();
        const points = pick([1, 2, 3]);
        const prediction = pick(['yes', 'no']);
        await (
          mine
            ? device.local.run(updateWagerMutator, {
                betId: bet.id,
                prediction,
                points,
                wagerId: mine.id,
              })
            : device.local.run(placeWagerMutator, {
                betId: bet.id,
                prediction,
                points,
                tempId: device.local.outbox.tempId(),
              })
        ).catch(() => undefined);
      } else if (roll < 0.78) {
        // Leave a group, or join it again (points restored by the server).
        const group = pick(groups);
        const isMember = (await device.db.memberships.get([group.id, userId])) !== undefined;
        if (group.createdByUserId !== userId) {
          await (
            isMember
              ? device.local.run(leaveGroupMutator, { groupId: group.id })
              : group.privacy === 'public'
                ? device.local.run(joinPublicGroupMutator, {
                    privacy: 'public',
                    groupName: group.name,
                  })
                : device.local.run(joinPrivateGroupMutator, {
                    privacy: 'private',
                    groupId: group.id,
                    inviteCode: await inviteCodeOf(group),
                  })
          ).catch(() => undefined);
        }
      } else if (roll < 0.81) {
        // The group's creator removes a member, on the server (no device of theirs is told but by events and pulls).
        const group = pick(groups);
        const member = pick(players.filter((player) => player.user.id !== group.createdByUserId));
        const creator = players.find((player) => player.user.id === group.createdByUserId)!;
        await server.request('DELETE', `/api/groups/${group.id}/members/${member.user.id}`, {
          token: creator.accessToken,
        });
      } else if (roll < 0.83) {
        // The expiry job, as if a week and more had passed for the bets closing within the hour.
        await expireDueBets(server, new Date(Date.now() + 7 * DAY + 2 * HOUR));
      } else if (roll < 0.9) {
        const own = active.filter((bet) => bet.createdBy === userId);
        if (own.length > 0)
          await device.local
            .run(resolveBetMutator, { betId: pick(own).id, correctAnswer: pick(['yes', 'no']) })
            .catch(() => undefined);
      } else if (roll < 0.94) {
        const own = active.filter((bet) => bet.createdBy === userId);
        if (own.length > 0)
          await device.local.run(cancelBetMutator, { betId: pick(own).id }).catch(() => undefined);
      } else {
        // An admin's device adds back a player its mirror lists as removed; else it gives its
        // private group a new invite code.
        const managed = (await device.db.groups.toArray()).filter((group) =>
          group.admins?.includes(userId),
        );
        const withRemoved = managed.filter((group) => (group.removedMembers?.length ?? 0) > 0);
        const private_ = managed.filter((group) => group.privacy === 'private');
        if (withRemoved.length > 0) {
          const group = pick(withRemoved);
          await device.local
            .run(addBackMemberMutator, { groupId: group.id, ...pick(group.removedMembers!) })
            .catch(() => undefined);
        } else if (private_.length > 0) {
          await device.local
            .run(rotateInviteCodeMutator, { groupId: pick(private_).id })
            .catch(() => undefined);
        }
      }
      if (next() < 0.2) {
        // A socket drop: events sent meanwhile are missed; the reconnection pulls.
        device.socket!.stop();
        device.socket!.start();
      }
      if (crash.hasHappened) {
        // What died comes back on the same data: memory (held events, change watermarks) is gone.
        crash.hasHappened = false;
        crashes += 1;
        await server.restart();
      }
    }
    crash.isPlanned = false;
    expect(crashes, `seed ${seed}: a write died between its commit and its answer`).toBeGreaterThan(
      0,
    );

    for (const device of devices) device.setOffline(false);
    devicesOffline.clear();
    // Every socket found its way back, across the restarts too: by its own attempts, or once
    // the server answered its device's pull (a run spent while a restart outlasted it).
    for (const device of devices) await device.local.sync();
    await Promise.all(
      devices.map((device) =>
        vi.waitFor(() => expect(device.socket!.getSnapshot().status).toBe('connected'), {
          timeout: 40_000,
        }),
      ),
    );
    for (let round = 0; round < 2; round += 1) {
      for (const device of devices) await device.local.sync();
      await Promise.all(devices.map((device) => device.local.whenIdle()));
    }

    for (const device of devices) {
      // Writes the server refused are reported, not drawn; nothing else may be left.
      const left = await device.db.outbox.toArray();
      expect(
        left.filter((entry) => entry.status !== 'failed'),
        `seed ${seed}`,
      ).toEqual([]);
      for (const entry of left) await device.local.outbox.discard(entry.id);
      expect(await device.db.shadow.count(), `seed ${seed}`).toBe(0);

      const fresh = await openDevice(server, device.session.user! as never);
      fresh.session.signIn(
        {
          accessToken: device.session.getAccessToken()!,
          refreshToken: 'unused',
          user: device.session.user!,
        } as never,
        true,
      );
      await fresh.local.sync();
      expect(
        await snapshotOf(device.db),
        `seed ${seed}: device of ${device.session.user!.displayName}`,
      ).toEqual(await snapshotOf(fresh.db));
      await fresh.close();
    }

    // Each bet created and accepted exists once on the server.
    const created = new Map<string, number>();
    for (const group of groups) {
      // Read by its creator: a private group's bets are its members'.
      const creator = players.find((player) => player.user.id === group.createdByUserId)!;
      const response = await server.request('GET', `/api/groups/${group.id}/bets`, {
        token: creator.accessToken,
      });
      for (const bet of response.body as Array<{ title: string }>)
        if (titles.has(bet.title)) created.set(bet.title, (created.get(bet.title) ?? 0) + 1);
    }
    expect(
      [...created.values()].every((count) => count === 1),
      `seed ${seed}`,
    ).toBe(true);
  } catch (error) {
    console.warn(`Convergence failed with HUNCH_SEED=${seed}`);
    throw error;
  } finally {
    await Promise.all(devices.map((device) => device.close()));
  }
}, 240_000);
