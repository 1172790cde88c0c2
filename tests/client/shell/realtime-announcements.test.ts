// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { RealtimeAnnouncement } from '../../../src/client/data/realtime-sync';
import {
  announcementText,
  showRealtimeAnnouncements,
} from '../../../src/client/shell/realtime-announcements';

// What the data layer's announcements say to the player (docs/groups-and-bets.md §8): one
// info toast each, in these very words.

describe('realtime announcements', () => {
  it('are worded per kind', () => {
    const said: Array<[RealtimeAnnouncement, string]> = [
      [
        { kind: 'refund', totalRefunded: 12, participants: 3 },
        '12 points refunded to 3 participant(s)',
      ],
      [
        { kind: 'resultUndone', title: 'Rain?' },
        'The result of “Rain?” was undone. Your points are back as they were.',
      ],
      [
        { kind: 'resultCorrected', title: 'Rain?' },
        'The result of “Rain?” was corrected by an admin.',
      ],
      [
        { kind: 'resultDisputed', title: 'Rain?' },
        'Someone thinks the result of “Rain?” is wrong. Take a look.',
      ],
      [
        { kind: 'removedFromGroup', groupName: 'Los Galácticos', removedBy: 'Ana' },
        'Ana removed you from Los Galácticos',
      ],
    ];
    for (const [announcement, text] of said) expect(announcementText(announcement)).toBe(text);
  });

  it('show as info toasts until unsubscribed', () => {
    let listener: ((announcement: RealtimeAnnouncement) => void) | null = null;
    const realtime = {
      onAnnouncement(next: (announcement: RealtimeAnnouncement) => void) {
        listener = next;
        return () => {
          listener = null;
        };
      },
    };
    const infos: string[] = [];
    const stop = showRealtimeAnnouncements(realtime, { info: (message) => infos.push(message) });

    listener!({ kind: 'removedFromGroup', groupName: 'Friends', removedBy: 'Ana' });
    stop();

    expect(infos).toEqual(['Ana removed you from Friends']);
    expect(listener).toBeNull();
  });
});
