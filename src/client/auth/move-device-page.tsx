import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { DEFAULT_RETURN_URL } from '../../domain/constants';
import { transferCodeFrom, type DeviceTransferPreview } from '../../domain/device-transfer';
import { deviceTransferCode } from '../../domain/schemas/device-transfer';
import { logout } from '../data/accounts-api';
import { errorMessage, isNetworkError } from '../data/api-client';
import { previewDeviceTransfer, redeemDeviceTransfer } from '../data/device-transfer-api';
import { useSession } from '../data/use-session';
import { toast } from '../shell/toast-store';
import { usePageTitle } from '../shell/use-page-title';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { Spinner } from '../ui/spinner';
import { TextField } from '../ui/text-field';
import { AuthLayout } from './auth-layout';
import styles from './auth-form.module.css';

// The other end of "Move to another device": /move#<code> asks "Sign in as
// Maya?" and then signs this device in, with a session of its own. Without a code (an
// installed app has no address bar) the link can be pasted. A device already signed in says
// so first. The code is read from the fragment, which never reaches a server, and then
// dropped from the address so it stays in no history.

const TEXT = {
  pageTitle: 'Move to this device',
  pasteTitle: 'Move to this device',
  pasteSubtitle:
    'On the device you play on now, open Profile, then Move to another device, and copy the link.',
  pasteLabel: 'Sign-in link',
  pastePlaceholder: 'Paste the link here',
  next: 'Continue',
  checking: 'Checking your sign-in link…',
  confirmTitle: (name: string) => `Sign in as ${name}?`,
  guestSubtitle: 'This guest account moves to this device with its groups and points.',
  fullSubtitle: 'This account signs in on this device with its groups and points.',
  signIn: (name: string) => `Sign in as ${name}`,
  busy: 'Signing in...',
  notMe: 'Not you? Go back',
  welcome: (name: string) => `Welcome, ${name}! You're signed in on this device.`,
  alreadyTitle: (name: string) => `You're already signed in as ${name}`,
  alreadyText: 'This device is signed in to this account already. The link was not used.',
  toDashboard: 'Go to your dashboard',
  otherTitle: 'This device is signed in to another account',
  otherText: (current: string, name: string) =>
    `You're signed in here as ${current}. Sign out first to sign in as ${name}.`,
  signOut: (current: string) => `Sign out ${current}`,
  offline: "You're offline. Connect to use your sign-in link.",
  failed: "We couldn't check your sign-in link. Please try again.",
  another: 'Paste another link',
  haveAccount: 'Have a password?',
  login: 'Sign in',
};

/** The code in the address's fragment, if any. Reading it changes nothing. */
function codeInAddress(): string | null {
  return window.location.hash.slice(1) || null;
}

/** Drops the fragment, so the code stays in no history. */
function dropCodeFromAddress() {
  if (!window.location.hash) return;
  window.history.replaceState(window.history.state, '', window.location.pathname);
}

type Step =
  | { kind: 'paste' }
  | { kind: 'checking'; code: string }
  | { kind: 'failed'; message: string }
  | { kind: 'confirm'; code: string; preview: DeviceTransferPreview };

export function MoveDevicePage() {
  usePageTitle(TEXT.pageTitle);
  // Read during render, dropped once committed: React may render (and run this initializer)
  // more than once before the page shows, and a render that was thrown away must not take
  // the code with it.
  const [step, setStep] = useState<Step>(() => {
    const code = codeInAddress();
    return code ? { kind: 'checking', code } : { kind: 'paste' };
  });
  useEffect(dropCodeFromAddress, []);

  // A link opened while this page shows (the same document): only the fragment changes.
  useEffect(() => {
    const onHashChange = () => {
      const code = codeInAddress();
      dropCodeFromAddress();
      if (code) setStep({ kind: 'checking', code });
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  useEffect(() => {
    if (step.kind !== 'checking') return;
    let isCurrent = true;
    previewDeviceTransfer(step.code).then(
      (preview) => isCurrent && setStep({ kind: 'confirm', code: step.code, preview }),
      (error: unknown) => {
        console.warn('Checking the sign-in link failed', error);
        if (isCurrent)
          setStep({
            kind: 'failed',
            message: isNetworkError(error) ? TEXT.offline : errorMessage(error, TEXT.failed),
          });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [step]);

  const footer = (
    <p>
      {TEXT.haveAccount} <Link to="/login">{TEXT.login}</Link>
    </p>
  );

  if (step.kind === 'paste')
    return (
      <AuthLayout title={TEXT.pasteTitle} subtitle={TEXT.pasteSubtitle} footer={footer}>
        <PasteLinkForm onCode={(code) => setStep({ kind: 'checking', code })} />
      </AuthLayout>
    );
  if (step.kind === 'checking')
    return (
      <AuthLayout title={TEXT.pasteTitle}>
        <div className={styles.form} role="status">
          <Spinner size="medium" />
          <p className={styles.note}>{TEXT.checking}</p>
        </div>
      </AuthLayout>
    );
  if (step.kind === 'failed')
    return (
      <AuthLayout title={TEXT.pasteTitle} footer={footer}>
        <div className={styles.form}>
          <FormAlert tone="error">{step.message}</FormAlert>
          <Button variant="secondary" fullWidth onClick={() => setStep({ kind: 'paste' })}>
            {TEXT.another}
          </Button>
        </div>
      </AuthLayout>
    );
  return <ConfirmMove code={step.code} preview={step.preview} footer={footer} />;
}

function PasteLinkForm({ onCode }: { onCode: (code: string) => void }) {
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = deviceTransferCode.safeParse(transferCodeFrom(pasted));
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    onCode(parsed.data);
  };
  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      <TextField
        label={TEXT.pasteLabel}
        placeholder={TEXT.pastePlaceholder}
        autoComplete="off"
        value={pasted}
        error={error}
        onChange={(event) => {
          setPasted(event.target.value);
          setError(undefined);
        }}
      />
      <Button type="submit" fullWidth>
        {TEXT.next}
      </Button>
    </form>
  );
}

function ConfirmMove({
  code,
  preview,
  footer,
}: {
  code: string;
  preview: DeviceTransferPreview;
  footer: ReactNode;
}) {
  const navigate = useNavigate();
  const { user } = useSession();
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const name = preview.displayName;

  if (user && user.id === preview.userId)
    return (
      <AuthLayout title={TEXT.alreadyTitle(name)} subtitle={TEXT.alreadyText}>
        <Button fullWidth onClick={() => navigate(DEFAULT_RETURN_URL, { replace: true })}>
          {TEXT.toDashboard}
        </Button>
      </AuthLayout>
    );
  if (user)
    return (
      <AuthLayout title={TEXT.otherTitle} subtitle={TEXT.otherText(user.displayName, name)}>
        <Button variant="secondary" fullWidth onClick={() => void logout()}>
          {TEXT.signOut(user.displayName)}
        </Button>
      </AuthLayout>
    );

  const onSignIn = async () => {
    setIsBusy(true);
    setFailure(null);
    try {
      await redeemDeviceTransfer(code);
      toast.success(TEXT.welcome(name));
      navigate(DEFAULT_RETURN_URL, { replace: true });
    } catch (error) {
      console.warn('Signing in with the sign-in link failed', error);
      setFailure(isNetworkError(error) ? TEXT.offline : errorMessage(error, TEXT.failed));
      setIsBusy(false);
    }
  };

  return (
    <AuthLayout
      title={TEXT.confirmTitle(name)}
      subtitle={preview.isTemporary ? TEXT.guestSubtitle : TEXT.fullSubtitle}
      footer={footer}
    >
      <div className={styles.form}>
        {failure && <FormAlert tone="error">{failure}</FormAlert>}
        <Button
          fullWidth
          isLoading={isBusy}
          loadingText={TEXT.busy}
          onClick={() => void onSignIn()}
        >
          {TEXT.signIn(name)}
        </Button>
        <Button variant="ghost" fullWidth onClick={() => navigate('/', { replace: true })}>
          {TEXT.notMe}
        </Button>
      </div>
    </AuthLayout>
  );
}
