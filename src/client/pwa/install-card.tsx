import { Download, Share, SquarePlus } from 'lucide-react';
import { useState, useSyncExternalStore } from 'react';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { onInstallPromptChange, promptInstall, readInstallWay } from './install-prompt';
import styles from './install-card.module.css';

// Profile "Install Hunch": Chromium's own install prompt behind a button; on iOS,
// where there is no prompt, the steps to add Hunch to the home screen and why (notifications
// only reach an app added there). Installed already, or a browser that cannot install: nothing.

const TEXT = {
  title: 'Install Hunch',
  promptText:
    'Add Hunch to this device: it opens like an app, works offline and can notify you when something happens in your groups.',
  install: 'Install Hunch',
  installed: 'Hunch is installed. Open it from your home screen or app list.',
  iosText:
    'On iPhone and iPad, Hunch can send you notifications only once it is on your home screen. It opens faster there too, and works offline.',
  iosSteps: [
    { icon: Share, text: 'Tap Share (the square with an arrow) in Safari’s toolbar.' },
    { icon: SquarePlus, text: 'Scroll down and tap Add to Home Screen, then Add.' },
    { icon: Download, text: 'Open Hunch from your home screen and turn on notifications.' },
  ],
  iosNote:
    'The home-screen app starts signed out. To bring this account along, use Move to another device below and paste its link there.',
};

export function InstallCard() {
  const way = useSyncExternalStore(onInstallPromptChange, () => readInstallWay());
  const [isPrompting, setIsPrompting] = useState(false);
  if (way === 'installed' || way === 'none') return null;

  const onInstall = async () => {
    setIsPrompting(true);
    try {
      if (await promptInstall()) toast.success(TEXT.installed);
    } finally {
      setIsPrompting(false);
    }
  };

  return (
    <Card aria-labelledby="install-hunch">
      <h2 id="install-hunch" className={styles.title}>
        <SquarePlus size={20} aria-hidden="true" className={styles.icon} />
        {TEXT.title}
      </h2>
      {way === 'prompt' ? (
        <>
          <p className={styles.text}>{TEXT.promptText}</p>
          <Button
            fullWidth
            icon={<Download size={18} aria-hidden="true" />}
            isLoading={isPrompting}
            onClick={() => void onInstall()}
          >
            {TEXT.install}
          </Button>
        </>
      ) : (
        <>
          <p className={styles.text}>{TEXT.iosText}</p>
          <ol className={styles.steps}>
            {TEXT.iosSteps.map(({ icon: Icon, text }) => (
              <li key={text}>
                <Icon size={20} aria-hidden="true" className={styles.stepIcon} />
                <span>{text}</span>
              </li>
            ))}
          </ol>
          <p className={styles.note}>{TEXT.iosNote}</p>
        </>
      )}
    </Card>
  );
}
