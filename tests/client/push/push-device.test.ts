import { describe, expect, it } from 'vitest';
import {
  deviceIdStorageKey,
  getDeviceName,
  getPushDeviceId,
} from '../../../src/client/push/push-subscription';

describe('the push device id (docs/groups-and-bets.md §3)', () => {
  it('is generated once per app and kept in localStorage', () => {
    localStorage.clear();
    const first = getPushDeviceId(localStorage, 'hunch');
    expect(first).toMatch(/^[A-Za-z0-9_.:-]+$/);
    expect(localStorage.getItem('push_device_id_hunch')).toBe(first);
    expect(getPushDeviceId(localStorage, 'hunch')).toBe(first);
  });

  it('survives what a logout clears, and differs per app', () => {
    localStorage.clear();
    const hunch = getPushDeviceId(localStorage, 'hunch', () => 'device-a');
    for (const key of ['access_token', 'refresh_token', 'user_data']) localStorage.removeItem(key);
    expect(getPushDeviceId(localStorage, 'hunch', () => 'device-b')).toBe(hunch);
    expect(getPushDeviceId(localStorage, 'other-app', () => 'device-c')).toBe('device-c');
    expect(deviceIdStorageKey('other-app')).toBe('push_device_id_other-app');
  });

  it('names the device from the user agent', () => {
    const ua =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
    expect(getDeviceName({ userAgent: ua, maxTouchPoints: 5 })).toBe('Mobile Chrome');
  });
});
