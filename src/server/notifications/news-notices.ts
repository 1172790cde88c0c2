import { isPoolBet } from '../../domain/bet-types';
import {
  findActiveMembershipWithName,
  findGroupName,
  listActiveMemberIds,
} from '../groups/membership-queries';
import type { NoticeContext, NoticeHandlers } from './notice-context';

// What is new in your group: a bet created by someone else, a member joining. Both gather while
// unread ("3 new bets in Friday Quiz"), and mutes keep them out. And the one entry a player gets
// when an admin removes them: "Ana removed you from Los Galácticos" (no mute keeps it out).

export function newsNotices({ db, save, audience }: NoticeContext): NoticeHandlers {
  return {
    async betCreated(event) {
      // A tipping round's matches are news of their round, not of the bet lists (isPoolBet).
      if (!isPoolBet(event)) return;
      const recipients = await audience(event.groupId, event.betId, [event.createdBy]);
      if (recipients.length === 0) return;
      const groupName = (await findGroupName(db, event.groupId)) ?? 'your group';
      const creator = await findActiveMembershipWithName(db, event.groupId, event.createdBy);
      const payload = {
        groupName,
        betTitle: event.title,
        actorName: creator?.userName ?? 'A member',
      };
      await save(
        'betCreated',
        recipients.map((userId) => ({
          userId,
          groupId: event.groupId,
          betId: event.betId,
          actorId: event.createdBy,
          payload,
        })),
      );
    },

    async userLeftGroup(event) {
      if (!event.removed || !event.removedBy) return;
      const groupName = (await findGroupName(db, event.groupId)) ?? 'a group';
      await save('removedFromGroup', [
        {
          userId: event.userId,
          groupId: event.groupId,
          betId: null,
          actorId: event.removedBy.userId,
          eventKey: event.version,
          payload: { groupName, actorName: event.removedBy.userName },
        },
      ]);
    },

    async userJoinedGroup(event) {
      const recipients = await audience(event.groupId, null, [event.userId]);
      if (recipients.length === 0) return;
      const groupName = (await findGroupName(db, event.groupId)) ?? 'your group';
      const memberCount = (await listActiveMemberIds(db, event.groupId)).length;
      const payload = { groupName, actorName: event.userName, memberCount };
      await save(
        'memberJoined',
        recipients.map((userId) => ({
          userId,
          groupId: event.groupId,
          betId: null,
          actorId: event.userId,
          payload,
        })),
      );
    },
  };
}
