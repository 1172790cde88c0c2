import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  disputeJudgeIds,
  disputeNoticeRecipients,
  mayJudgeDispute,
} from '../../src/domain/fair-resolution';

// Who judges a dispute: nobody who disputed it or has a stake in the bet; the group's admins
// when one of them is free of it, else any member who is.

const groupArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 12 })
  .chain((memberIds) =>
    fc.record({
      memberIds: fc.constant(memberIds),
      adminIds: fc.subarray(memberIds),
      stakeholderIds: fc.subarray(memberIds),
      disputedBy: fc.option(fc.constantFrom(...memberIds), { nil: null }),
    }),
  );

describe('disputeJudgeIds', () => {
  it('never names the disputer or anyone with a stake, and prefers admins (property test)', () => {
    fc.assert(
      fc.property(groupArb, (group) => {
        const judges = disputeJudgeIds(group);
        const isFree = (id: number) =>
          id !== group.disputedBy && !group.stakeholderIds.includes(id);
        expect(judges.every(isFree)).toBe(true);
        const freeAdmins = group.adminIds.filter(isFree);
        const freeMembers = group.memberIds.filter(isFree);
        expect(new Set(judges)).toEqual(new Set(freeAdmins.length > 0 ? freeAdmins : freeMembers));
        for (const id of group.memberIds)
          expect(mayJudgeDispute(id, group)).toBe(judges.includes(id));
      }),
    );
  });

  it('keeps an admin who wagered and disputed from judging, leaving it to another admin', () => {
    const group = { memberIds: [1, 2, 3, 4], adminIds: [1, 2], stakeholderIds: [1, 3] };
    expect(disputeJudgeIds({ ...group, disputedBy: 1 })).toEqual([2]);
  });

  it('hands the dispute to the members without a stake when every admin has one', () => {
    const group = { memberIds: [1, 2, 3, 4], adminIds: [1, 2], stakeholderIds: [1, 2, 3] };
    expect(disputeJudgeIds({ ...group, disputedBy: 3 })).toEqual([4]);
    expect(disputeJudgeIds({ ...group, stakeholderIds: [1, 2, 3, 4], disputedBy: 3 })).toEqual([]);
  });

  it('leaves out whoever joined after the dispute was opened, an admin included', () => {
    const group = { memberIds: [1, 2, 3, 4, 5], adminIds: [1, 2], stakeholderIds: [1, 3] };
    const joinedAt = new Map([
      [1, 0],
      [2, 200],
      [3, 0],
      [4, 50],
      [5, 100],
    ]);
    // Admin 2 joined after: the members without a stake who were there judge (4; 5 joined at the very time).
    expect(disputeJudgeIds({ ...group, disputedBy: 3, disputedAt: 100, joinedAt })).toEqual([4, 5]);
    // Before any dispute, or without join times, nobody is left out.
    expect(disputeJudgeIds({ ...group, disputedBy: null, disputedAt: null, joinedAt })).toEqual([
      2,
    ]);
    expect(disputeJudgeIds({ ...group, disputedBy: 3, disputedAt: 100 })).toEqual([2]);
  });
});

describe('disputeNoticeRecipients', () => {
  it('tells the creator and the judges while members, never the disputer (property test)', () => {
    fc.assert(
      fc.property(groupArb, fc.integer({ min: 1, max: 30 }), (group, createdBy) => {
        const told = disputeNoticeRecipients({ ...group, createdBy });
        const expected = new Set([createdBy, ...disputeJudgeIds(group)]);
        expected.delete(group.disputedBy ?? -1);
        for (const id of expected) if (!group.memberIds.includes(id)) expected.delete(id);
        expect(new Set(told)).toEqual(expected);
        expect(told).toHaveLength(expected.size);
      }),
    );
  });

  it('leaves out an admin with a stake who did not create the bet', () => {
    const group = { memberIds: [1, 2, 3, 4], adminIds: [1, 2], stakeholderIds: [2, 3] };
    expect(disputeNoticeRecipients({ ...group, createdBy: 4, disputedBy: 3 })).toEqual([4, 1]);
  });
});
