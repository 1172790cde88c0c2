import { PushPermissionDeniedError, type PushService } from './push-subscription';

// The profile's push toggle (docs/groups-and-bets.md §4 "Push toggle states", §8 messages), framework-free:
// the card (push-settings-card.tsx) shows the status and the toasts these functions return.
// - on: permission granted, signed in, and the server says active; blocked: permission denied
//   (the toggle is disabled, with instructions); off: anything else;
// - enable: request permission → subscribe → register; disable: unsubscribe + delete;
// - a failure reverts the toggle; a denial sets blocked; no token, no change.

export type PushToggleStatus = 'checking' | 'on' | 'off' | 'blocked' | 'unsupported';

export const PUSH_TOGGLE_MESSAGES = {
  notLoggedIn: 'You must be logged in to manage notifications',
  enabled: 'Notifications enabled successfully',
  disabled: 'Notifications disabled successfully',
  enableFailed: 'Failed to enable notifications',
  disableFailed: 'Failed to disable notifications',
  denied: 'Notification permission was denied. Check your browser settings.',
} as const;

export interface PushToggleOutcome {
  status: PushToggleStatus;
  toast: { type: 'success' | 'error'; message: string };
}

type ToggleService = Pick<
  PushService,
  'isSupported' | 'permission' | 'status' | 'subscribe' | 'unsubscribe'
>;

/** The toggle's state when the card opens. */
export async function readPushToggleStatus(
  service: ToggleService,
  hasToken: boolean,
): Promise<Exclude<PushToggleStatus, 'checking'>> {
  if (!service.isSupported()) return 'unsupported';
  const permission = service.permission();
  if (permission === 'denied') return 'blocked';
  if (permission !== 'granted' || !hasToken) return 'off';
  try {
    return (await service.status()) ? 'on' : 'off';
  } catch (error) {
    console.warn('Could not read the push status', error);
    return 'off';
  }
}

/** Switching on. `previous` is what the toggle goes back to on failure. */
export async function enablePush(
  service: ToggleService,
  hasToken: boolean,
  previous: PushToggleStatus,
): Promise<PushToggleOutcome> {
  if (!hasToken)
    return {
      status: previous,
      toast: { type: 'error', message: PUSH_TOGGLE_MESSAGES.notLoggedIn },
    };
  try {
    await service.subscribe();
    return { status: 'on', toast: { type: 'success', message: PUSH_TOGGLE_MESSAGES.enabled } };
  } catch (error) {
    if (error instanceof PushPermissionDeniedError)
      return { status: 'blocked', toast: { type: 'error', message: PUSH_TOGGLE_MESSAGES.denied } };
    console.warn('Enabling notifications failed', error);
    return {
      status: previous,
      toast: { type: 'error', message: PUSH_TOGGLE_MESSAGES.enableFailed },
    };
  }
}

/** Switching off. */
export async function disablePush(
  service: ToggleService,
  hasToken: boolean,
  previous: PushToggleStatus,
): Promise<PushToggleOutcome> {
  if (!hasToken)
    return {
      status: previous,
      toast: { type: 'error', message: PUSH_TOGGLE_MESSAGES.notLoggedIn },
    };
  try {
    await service.unsubscribe();
    return { status: 'off', toast: { type: 'success', message: PUSH_TOGGLE_MESSAGES.disabled } };
  } catch (error) {
    console.warn('Disabling notifications failed', error);
    return {
      status: previous,
      toast: { type: 'error', message: PUSH_TOGGLE_MESSAGES.disableFailed },
    };
  }
}
