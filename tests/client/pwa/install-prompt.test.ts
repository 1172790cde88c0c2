import { describe, expect, it, vi } from 'vitest';
import {
  captureInstallPrompt,
  isIos,
  promptInstall,
  readInstallWay,
} from '../../../src/client/pwa/install-prompt';

// How Hunch installs on this browser: installed, Chromium's prompt, the iOS steps.

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP_MODE =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36';

function fakeWindow({ userAgent = CHROME, maxTouchPoints = 0, standalone = false } = {}) {
  const target = new EventTarget();
  return Object.assign(target, {
    navigator: { userAgent, maxTouchPoints },
    matchMedia: (query: string) => ({ matches: standalone && query.includes('standalone') }),
  }) as unknown as Window;
}

describe('isIos', () => {
  it('knows an iPhone, and an iPad asking for the desktop site by its touch screen', () => {
    expect(isIos(IPHONE, 5)).toBe(true);
    expect(isIos(IPAD_DESKTOP_MODE, 5)).toBe(true);
    expect(isIos(IPAD_DESKTOP_MODE, 0)).toBe(false);
    expect(isIos(CHROME, 0)).toBe(false);
  });
});

describe('readInstallWay', () => {
  it('says installed when opened from the home screen, whatever the browser', () => {
    expect(readInstallWay(fakeWindow({ userAgent: IPHONE, standalone: true }))).toBe('installed');
  });

  it('shows the iOS steps in Safari on an iPhone, and nothing where no install is offered', () => {
    expect(readInstallWay(fakeWindow({ userAgent: IPHONE, maxTouchPoints: 5 }))).toBe('ios');
    expect(readInstallWay(fakeWindow())).toBe('none');
  });

  it("keeps Chromium's prompt for the install button, which uses it once", async () => {
    const win = fakeWindow();
    captureInstallPrompt(win);
    const prompt = vi.fn(async () => undefined);
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    win.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(readInstallWay(win)).toBe('prompt');
    await expect(promptInstall()).resolves.toBe(true);
    expect(prompt).toHaveBeenCalledOnce();
    expect(readInstallWay(win)).toBe('none');
    await expect(promptInstall()).resolves.toBe(false);
  });
});
