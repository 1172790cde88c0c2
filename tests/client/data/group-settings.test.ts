// @vitest-environment node
import '../node-browser';
import { describe, expect, it } from 'vitest';
import { setFloorTopUpMutator } from '../../../src/client/data/group-mutators';
import { createGroup, createPlayer, joinGroup } from '../../server/groups/group.factories';
import { NO_TIMERS } from '../../server/notifications/notification.factories';
import { useDeviceServer } from './device.fixture';

// The group's weekly top-up switch: on the mirrored group row for its members, written through
// the outbox (offline too), shown at once, sent once when back.

const { server, openDevice } = useDeviceServer(NO_TIMERS);

describe('the weekly top-up setting', () => {
  it('is on the group row of the mirror, and an admin turns it off offline', async () => {
    const admin = await createPlayer(server, 'Admin');
    const member = await createPlayer(server, 'Member');
    const group = await createGroup(server, admin);
    await joinGroup(server, member, group);
    const phone = await openDevice(admin);
    await phone.local.sync();
    expect((await phone.db.groups.get(group.id))?.floorTopUp).toBe(true);

    phone.setOffline(true);
    const result = await phone.local.run(setFloorTopUpMutator, {
      groupId: group.id,
      floorTopUp: false,
    });
    expect(result.status).toBe('queued');
    expect((await phone.db.groups.get(group.id))?.floorTopUp).toBe(false);
    await phone.local.sync();
    expect((await phone.db.groups.get(group.id))?.floorTopUp).toBe(false);

    phone.setOffline(false);
    await phone.local.sync();
    await phone.local.whenIdle();
    const settings = await server.request('GET', `/api/groups/${group.id}/settings`, {
      token: admin.accessToken,
    });
    expect(settings.body).toEqual({ floorTopUp: false });
    // A member's device learns it with its next pull.
    const memberPhone = await openDevice(member);
    await memberPhone.local.sync();
    expect((await memberPhone.db.groups.get(group.id))?.floorTopUp).toBe(false);
  });
});
