import { Share2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import type * as ShareCard from './share-card';

// The Share button of a card (a resolved bet, a season's podium). Drawing and sharing are a
// lazy chunk (`share-card.tsx`), loaded on the first tap: the initial bundle has no room.

const TEXT = {
  share: 'Share',
  failed: "We couldn't make the share card. Please try again.",
};

export function ShareButton({ share }: { share: (cards: typeof ShareCard) => Promise<void> }) {
  const [isBusy, setIsBusy] = useState(false);
  const onShare = async () => {
    setIsBusy(true);
    try {
      await share(await import('./share-card'));
    } catch (error) {
      console.warn('Sharing the card failed', error);
      toast.error(TEXT.failed);
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Button
      variant="secondary"
      size="small"
      isLoading={isBusy}
      icon={<Share2 size={16} aria-hidden="true" />}
      onClick={() => void onShare()}
    >
      {TEXT.share}
    </Button>
  );
}
