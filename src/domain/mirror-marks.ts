// The mirror's two constants the client needs at start (mirror.ts re-exports them): no schema
// here, so importing them costs the dashboard's first load nothing more.

/** What `cursor` takes to start a mirror from nothing. */
export const MIRROR_START_CURSOR = '0';

/** The performance mark the client sets once a sync's last page is written (the sync benchmark waits for it). */
export const MIRROR_SYNCED_MARK = 'hunch:mirror-synced';
