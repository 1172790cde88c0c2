import { toast } from '../shell/toast-store';

// The flow after a successful join (docs/groups-and-bets.md §4). The group is already the active group (the
// join action made it so). The toast says it was joined (§4: "a toast says it was joined");
// then the server's push status is checked (10 s time-out) and, when there is no active
// subscription and the browser has not denied permission, the join modal switches to the
// "Enable group updates" prompt instead of closing; a failed check simply completes the join
// (src/client/push/push-prompt.tsx). The push code is a lazy chunk.

const JOINED_TEXT = 'Group joined successfully!';

interface AfterGroupJoinedOptions {
  /** Closes the join modal; absent when the join happened on the page (an invite link). */
  close?: () => void;
}

export async function afterGroupJoined({ close }: AfterGroupJoinedOptions = {}): Promise<void> {
  toast.success(JOINED_TEXT);
  const isPrompting = await import('../push/push-prompt').then(
    ({ offerPushPrompt }) => offerPushPrompt({ isModalOpen: close !== undefined }),
    (error: unknown) => {
      console.warn('The push prompt could not be loaded', error);
      return false;
    },
  );
  if (!isPrompting) close?.();
}
