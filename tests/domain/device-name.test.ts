import { describe, expect, it } from 'vitest';
import { browserName, deriveDeviceName, deviceKind } from '../../src/domain/device-name';

const UA = {
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  androidTabletChrome:
    'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0',
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  windowsEdge:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.56',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  opera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 OPR/111.0.0.0',
  headlessChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
};

describe('deriveDeviceName (docs/groups-and-bets.md §3)', () => {
  it.each([
    [UA.androidChrome, 'Mobile Chrome'],
    [UA.androidFirefox, 'Mobile Firefox'],
    [UA.samsung, 'Mobile Samsung Internet'],
    [UA.androidTabletChrome, 'Tablet Chrome'],
    [UA.windowsChrome, 'Desktop Chrome'],
    [UA.windowsEdge, 'Desktop Edge'],
    [UA.linuxFirefox, 'Desktop Firefox'],
    [UA.opera, 'Desktop Opera'],
    [UA.macSafari, 'Desktop Safari'],
    [UA.ipad, 'iPad'],
    [UA.iphoneSafari, 'iPhone'],
    [UA.iphoneChrome, 'iPhone'],
    [UA.headlessChrome, 'Desktop Chrome'],
  ])('names %s as %s', (userAgent, name) => {
    expect(deriveDeviceName(userAgent)).toBe(name);
  });

  it('calls a browser it does not know "Browser"', () => {
    expect(deriveDeviceName('curl/8.5.0')).toBe('Desktop Browser');
    expect(deriveDeviceName('')).toBe('Desktop Browser');
  });

  it('tells an iPad in desktop mode from a Mac by its touch points', () => {
    expect(deriveDeviceName(UA.macSafari, 5)).toBe('iPad');
    expect(deriveDeviceName(UA.macSafari, 0)).toBe('Desktop Safari');
  });

  it('does not take Edge, Opera or Samsung Internet for Chrome, nor Chrome for Safari', () => {
    expect(browserName(UA.windowsEdge)).toBe('Edge');
    expect(browserName(UA.opera)).toBe('Opera');
    expect(browserName(UA.samsung)).toBe('Samsung Internet');
    expect(browserName(UA.windowsChrome)).toBe('Chrome');
    expect(browserName(UA.iphoneChrome)).toBe('Chrome');
  });

  it('reads the kind of device apart from the browser', () => {
    expect(deviceKind(UA.androidChrome)).toBe('Mobile');
    expect(deviceKind(UA.androidTabletChrome)).toBe('Tablet');
    expect(deviceKind(UA.linuxFirefox)).toBe('Desktop');
  });
});
