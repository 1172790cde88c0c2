// Spec 02 §4, after a join: the server's push status is checked with a 10 s time-out. With
// no active subscription and permission not denied, the join modal switches to the "Enable
// group updates" prompt; otherwise it closes. If the check errors (or times out) the join
// simply completes: §4 says so, and a prompt the status could not justify would nag people
// who already get notifications (§8's "failure means the prompt is shown" is the other
// reading; §4, the flow itself, wins).

export const PUSH_STATUS_TIMEOUT_MS = 10_000;

export interface PushPromptChecks {
  isSupported: boolean;
  isSignedIn: boolean;
  permission: NotificationPermission;
  /** GET status; aborted when the time-out wins. */
  checkStatus: (signal: AbortSignal) => Promise<boolean>;
  timeoutMs?: number;
}

export async function shouldOfferPushPrompt({
  isSupported,
  isSignedIn,
  permission,
  checkStatus,
  timeoutMs = PUSH_STATUS_TIMEOUT_MS,
}: PushPromptChecks): Promise<boolean> {
  if (!isSupported || !isSignedIn || permission === 'denied') return false;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error('The push status check timed out'));
    }, timeoutMs);
  });
  try {
    const isActive = await Promise.race([checkStatus(controller.signal), timeout]);
    return !isActive;
  } catch (error) {
    console.warn('The push status check failed; the join completes without the prompt', error);
    return false;
  } finally {
    clearTimeout(timer);
  }
}
