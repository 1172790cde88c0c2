// The words of the sync status: the strips' buttons and the sheet they open.

export const SYNC_TEXT = {
  title: 'Sync status',
  open: 'Details',
  review: 'Review',
  waiting: 'Waiting to be sent',
  sending: 'Sending…',
  retry: 'Retry',
  discard: 'Discard',
  upToDate: 'Everything on this device has reached the server.',
  neverSynced: 'Not updated from the server yet.',
  refused: (count: number) =>
    count === 1 ? "1 change couldn't be sent." : `${count} changes couldn't be sent.`,
};
