import { Bell, BellOff } from 'lucide-react';
import { useNotificationSettings } from '../data/use-notifications';
import { Button } from '../ui/button';
import { inboxActions } from './inbox-actions';

// Mute a group or one bet: nothing more about it reaches the inbox or push, except
// the player's own results. A real toggle button (aria-pressed); written through the outbox.

const TEXT = {
  group: { mute: 'Mute group', unmute: 'Unmute group' },
  bet: { mute: 'Mute bet', unmute: 'Unmute bet' },
};

export function MuteButton({ target, id }: { target: 'group' | 'bet'; id: number }) {
  const settings = useNotificationSettings();
  const isMuted = (target === 'group' ? settings.mutedGroupIds : settings.mutedBetIds).includes(id);
  const text = TEXT[target];
  const toggle = () =>
    void (target === 'group'
      ? inboxActions.muteGroup(id, !isMuted)
      : inboxActions.muteBet(id, !isMuted));
  return (
    <Button
      variant="ghost"
      size="small"
      aria-pressed={isMuted}
      icon={
        isMuted ? <BellOff size={18} aria-hidden="true" /> : <Bell size={18} aria-hidden="true" />
      }
      onClick={toggle}
    >
      {isMuted ? text.unmute : text.mute}
    </Button>
  );
}
