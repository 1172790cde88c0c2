import { Smartphone } from 'lucide-react';
import { useEffect } from 'react';
import { socketService } from '../data/socket-service';
import { useSession } from '../data/use-session';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import styles from './move-device.module.css';
import { MoveDeviceModal } from './move-device-modal';

// Profile "Move to another device": a one-time sign-in code for the phone, the
// other browser or the installed app. A guest needs it most: their account lives only here.
// When a code is used elsewhere, the profile says so with a toast (the sheet, if open, too).

const TEXT = {
  title: 'Move to another device',
  guestText:
    'Your guest account lives in this browser. To play on your phone, in another browser or in the installed app, bring it along with a one-time sign-in code.',
  fullText:
    'Sign in on your phone, another browser or the installed app without typing your password: show a one-time sign-in code.',
  show: 'Show a sign-in code',
  modalTitle: 'Move to another device',
  redeemed: 'Signed in on the other device.',
};

export function openMoveDeviceModal() {
  openModal({ title: TEXT.modalTitle, render: (close) => <MoveDeviceModal onDone={close} /> });
}

export function MoveDeviceCard() {
  const { user } = useSession();
  useEffect(
    () => socketService.on('deviceTransferRedeemed', () => toast.success(TEXT.redeemed)),
    [],
  );
  return (
    <Card aria-labelledby="move-device">
      <h2 id="move-device" className={styles.title}>
        <Smartphone size={20} aria-hidden="true" className={styles.icon} />
        {TEXT.title}
      </h2>
      <p className={styles.text}>{user?.isTemporary ? TEXT.guestText : TEXT.fullText}</p>
      <Button variant="secondary" fullWidth onClick={openMoveDeviceModal}>
        {TEXT.show}
      </Button>
    </Card>
  );
}
