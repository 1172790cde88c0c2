import { Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { fetchAccountExport } from '../data/account-data-api';
import { isNetworkError } from '../data/api-client';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { DeleteAccountModal } from './delete-account-modal';
import { saveJsonFile } from './save-json-file';
import styles from './your-data.module.css';

// Profile "Your data": download everything Hunch holds about you, or delete
// your account (a confirmation in the modal host).
const TEXT = {
  title: 'Your data',
  text: 'Download a copy of everything Hunch keeps about you, or delete your account for good.',
  download: 'Download my data',
  downloading: 'Preparing...',
  downloaded: 'Your data is downloading.',
  offline: "You're offline. Connect to download your data.",
  failed: "We couldn't prepare your data. Please try again.",
  delete: 'Delete account',
  modalTitle: 'Delete your account?',
};

function openDeleteAccountModal() {
  openModal({
    title: TEXT.modalTitle,
    size: 'narrow',
    render: (close) => <DeleteAccountModal onCancel={close} />,
  });
}

export function YourDataCard() {
  const [isDownloading, setIsDownloading] = useState(false);

  const onDownload = async () => {
    setIsDownloading(true);
    try {
      const { fileName, document } = await fetchAccountExport();
      saveJsonFile(fileName, document);
      toast.success(TEXT.downloaded);
    } catch (error) {
      console.warn('The data export failed', error);
      toast.error(isNetworkError(error) ? TEXT.offline : TEXT.failed);
    } finally {
      setIsDownloading(false);
    }
  };

  return (
    <Card aria-labelledby="your-data">
      <h2 id="your-data" className={styles.title}>
        {TEXT.title}
      </h2>
      <p className={styles.text}>{TEXT.text}</p>
      <div className={styles.actions}>
        <Button
          variant="secondary"
          icon={<Download size={18} aria-hidden="true" />}
          isLoading={isDownloading}
          loadingText={TEXT.downloading}
          onClick={() => void onDownload()}
        >
          {TEXT.download}
        </Button>
        <Button
          variant="ghost"
          className={styles.deleteButton}
          icon={<Trash2 size={18} aria-hidden="true" />}
          onClick={openDeleteAccountModal}
        >
          {TEXT.delete}
        </Button>
      </div>
    </Card>
  );
}
