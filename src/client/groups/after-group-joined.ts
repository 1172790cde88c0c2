import { toast } from '../shell/toast-store';

// The flow after a successful join (spec 02 §4). The group is already the active group (the
// join action made it so). Next, spec 02 §4 checks the server's push status (10 s time-out)
// and, when there is no active subscription and the browser has not denied permission,
// switches the modal to the "Enable group updates" prompt instead of closing it; a failed
// check simply completes the join. THE PUSH ISSUE PLUGS THAT STEP IN HERE, and only here.
// Until then every join completes at once.

export const JOINED_TEXT = 'Group joined successfully!';

interface AfterGroupJoinedOptions {
  /** Closes the join modal; absent when the join happened on the page (an invite link). */
  close?: () => void;
}

export async function afterGroupJoined({ close }: AfterGroupJoinedOptions = {}): Promise<void> {
  completeJoin(close);
}

function completeJoin(close: (() => void) | undefined) {
  toast.success(JOINED_TEXT);
  close?.();
}
