// The words of the sync status: the strips' buttons and the sheet they open.

export const SYNC_TEXT = {
  title: 'Sync status',
  open: 'Details',
  review: 'Review',
  waiting: 'Waiting to be sent',
  sending: 'Sending…',
  retry: 'Retry',
  discard: 'Discard',
  dismiss: 'Dismiss',
  upToDate: 'Everything on this device has reached the server.',
  neverSynced: 'Not updated from the server yet.',
  refused: (count: number) =>
    count === 1 ? "1 change couldn't be sent." : `${count} changes couldn't be sent.`,
};

// The writes held when a session ended, as their player finds them at their next sign-in.
export const HELD_TEXT = {
  title: 'Not sent yet',
  intro: 'Your last session ended before these were sent. Send them now, or let them go.',
  send: 'Send',
  discard: 'Discard',
  review: 'Review',
  waiting: (count: number) =>
    count === 1
      ? "1 change from last time wasn't sent."
      : `${count} changes from last time weren't sent.`,
};
