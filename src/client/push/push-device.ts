import { DEFAULT_APP_NAME } from '../../domain/constants';
import { deriveDeviceName } from '../../domain/device-name';

// Who this device is to the push service (spec 02 §3): a device id generated once per app and
// kept in localStorage (it must outlive a logout, so a later login finds the same
// subscription row), and a readable device name derived from the user agent.

export const PUSH_APP_NAME = DEFAULT_APP_NAME;

export const deviceIdStorageKey = (appName: string) => `push_device_id_${appName}`;

/** A random id of letters, digits and dashes (the server's deviceId pattern). */
export function randomDeviceId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; an http:// address on a LAN has getRandomValues only.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** This app's device id, made and stored on first use. */
export function getPushDeviceId(
  storage: Storage = localStorage,
  appName = PUSH_APP_NAME,
  makeId = randomDeviceId,
): string {
  const key = deviceIdStorageKey(appName);
  const known = storage.getItem(key);
  if (known) return known;
  const id = makeId();
  storage.setItem(key, id);
  return id;
}

export function getDeviceName(
  nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> = navigator,
): string {
  return deriveDeviceName(nav.userAgent, nav.maxTouchPoints ?? 0);
}
