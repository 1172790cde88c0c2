import { lazy, Suspense } from 'react';
import { openModal } from '../shell/modal-store';
import { Spinner } from '../ui/spinner';

// Opening the account modals from anywhere (the header's warning icon, the profile page).
// Their forms load on first use: the header is on every page, the forms are not.

const UpgradeAccountModal = lazy(() =>
  import('./upgrade-account-modal').then((m) => ({ default: m.UpgradeAccountModal })),
);
const EditAccountModal = lazy(() =>
  import('./edit-account-modal').then((m) => ({ default: m.EditAccountModal })),
);

function ModalLoading() {
  return (
    <div
      style={{ display: 'grid', placeItems: 'center', minHeight: 240, color: 'var(--color-brand)' }}
    >
      <Spinner size="large" label="Loading" />
    </div>
  );
}

export function openUpgradeModal() {
  openModal({
    title: 'Upgrade to a Full Account',
    render: (close) => (
      <Suspense fallback={<ModalLoading />}>
        <UpgradeAccountModal onDone={close} />
      </Suspense>
    ),
  });
}

export function openEditAccountModal() {
  openModal({
    title: 'Edit Profile',
    render: (close) => (
      <Suspense fallback={<ModalLoading />}>
        <EditAccountModal onDone={close} />
      </Suspense>
    ),
  });
}
