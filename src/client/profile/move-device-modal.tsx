import { CheckCircle2, RotateCw, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { TOKEN_LIFETIME } from '../../domain/constants';
import { deviceTransferLink, type DeviceTransfer } from '../../domain/device-transfer';
import { errorMessage, isNetworkError } from '../data/api-client';
import { cancelDeviceTransfers, createDeviceTransfer } from '../data/device-transfer-api';
import { socketService } from '../data/socket-service';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { CopyLink } from '../ui/copy-link';
import { FormAlert } from '../ui/form-alert';
import { QrCode } from '../ui/qr-code';
import { Spinner } from '../ui/spinner';
import { useNow } from '../ui/use-now';
import styles from './move-device.module.css';

// The sheet of "Move to another device": a fresh one-time code as a QR code and a link, the
// time it has left, a new one once it expired, and Cancel (the code stops working at once).
// When the other device uses the code, the server tells this account's sockets and the sheet
// says so in place of the code, which is spent.

const TEXT = {
  making: 'Making your sign-in code…',
  lead: 'On your other device, scan this code with the camera or open the link. It signs this account in there, once.',
  link: 'Sign-in link',
  validFor: (left: string) =>
    `Works for ${left} more. Anyone with it can sign in as you: share it only with yourself.`,
  expired: 'This code has expired.',
  again: 'Make a new code',
  cancel: 'Cancel the code',
  cancelled: 'The sign-in code was cancelled.',
  offline: "You're offline. Connect to make a sign-in code.",
  failed: "We couldn't make a sign-in code. Please try again.",
  cancelFailed: "We couldn't cancel the code. It still stops working when its time is up.",
  redeemed: 'Signed in on the other device.',
  done: 'Done',
};

/** m:ss, never more than the code's 10 minutes (the two clocks may differ by a second). */
function formatLeft(ms: number): string {
  const seconds = Math.min(TOKEN_LIFETIME.deviceTransferSeconds, Math.max(0, Math.ceil(ms / 1000)));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function MoveDeviceModal({ onDone }: { onDone: () => void }) {
  const [transfer, setTransfer] = useState<DeviceTransfer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [isCancelling, setIsCancelling] = useState(false);
  const [isRedeemed, setIsRedeemed] = useState(false);
  const now = useNow();

  useEffect(() => socketService.on('deviceTransferRedeemed', () => setIsRedeemed(true)), []);

  useEffect(() => {
    let isCurrent = true;
    createDeviceTransfer().then(
      (made) => isCurrent && setTransfer(made),
      (error: unknown) => {
        console.warn('Making a sign-in code failed', error);
        if (isCurrent)
          setFailure(isNetworkError(error) ? TEXT.offline : errorMessage(error, TEXT.failed));
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [attempt]);

  const onCancel = async () => {
    setIsCancelling(true);
    try {
      await cancelDeviceTransfers();
      toast.success(TEXT.cancelled);
      onDone();
    } catch (error) {
      console.warn('Cancelling the sign-in code failed', error);
      toast.error(TEXT.cancelFailed);
      setIsCancelling(false);
    }
  };

  const again = (
    <Button
      fullWidth
      icon={<RotateCw size={18} aria-hidden="true" />}
      onClick={() => {
        setTransfer(null);
        setFailure(null);
        setAttempt((n) => n + 1);
      }}
    >
      {TEXT.again}
    </Button>
  );

  if (isRedeemed)
    return (
      <div className={styles.sheet}>
        <p className={styles.redeemed} role="status">
          <CheckCircle2 size={20} aria-hidden="true" />
          {TEXT.redeemed}
        </p>
        <Button fullWidth onClick={onDone}>
          {TEXT.done}
        </Button>
      </div>
    );
  if (failure)
    return (
      <div className={styles.sheet}>
        <FormAlert tone="error">{failure}</FormAlert>
        {again}
      </div>
    );
  if (!transfer)
    return (
      <div className={styles.sheet} role="status">
        <Spinner size="medium" />
        <span className={styles.lead}>{TEXT.making}</span>
      </div>
    );

  const left = Date.parse(transfer.expiresAt) - now;
  if (left <= 0)
    return (
      <div className={styles.sheet}>
        <p className={styles.lead} role="status">
          {TEXT.expired}
        </p>
        {again}
      </div>
    );

  const link = deviceTransferLink(window.location.origin, transfer.transferCode);
  return (
    <div className={styles.sheet}>
      <p className={styles.lead}>{TEXT.lead}</p>
      <QrCode value={link} title="QR code of your sign-in link" />
      <p className={styles.countdown}>{TEXT.validFor(formatLeft(left))}</p>
      <CopyLink link={link} label={TEXT.link} />
      <Button
        variant="ghost"
        fullWidth
        isLoading={isCancelling}
        icon={<X size={18} aria-hidden="true" />}
        onClick={() => void onCancel()}
      >
        {TEXT.cancel}
      </Button>
    </div>
  );
}
