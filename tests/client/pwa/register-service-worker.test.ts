import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  registerServiceWorker,
  SKIP_WAITING_MESSAGE,
} from '../../../src/client/pwa/register-service-worker';

// docs/accounts-and-shell.md §4 "App lifecycle", against a fake ServiceWorkerContainer.

class FakeWorker extends EventTarget {
  state = 'installing';
  postMessage = vi.fn();
  become(state: string) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

function fakeContainer({ isControlled = true, waiting = null as FakeWorker | null } = {}) {
  const registration = Object.assign(new EventTarget(), {
    waiting,
    installing: null as FakeWorker | null,
    update: vi.fn(async () => undefined),
  });
  const container = Object.assign(new EventTarget(), {
    controller: isControlled ? ({} as ServiceWorker) : null,
    register: vi.fn(async () => registration),
  });
  return { container, registration, asContainer: container as unknown as ServiceWorkerContainer };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('registering the service worker', () => {
  it('waits for a stable app, or 30000 ms at the latest', async () => {
    const { container, asContainer } = fakeContainer();
    void registerServiceWorker({
      container: asContainer,
      whenStable: () => new Promise(() => undefined),
      reload: vi.fn(),
    });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(container.register).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('registers at once when the app is stable sooner', async () => {
    const { container, asContainer } = fakeContainer();
    await registerServiceWorker({
      container: asContainer,
      whenStable: async () => undefined,
      reload: vi.fn(),
    });
    expect(container.register).toHaveBeenCalledOnce();
  });

  it('checks for a new version every 3,600,000 ms', async () => {
    const { registration, asContainer } = fakeContainer();
    await registerServiceWorker({
      container: asContainer,
      whenStable: async () => undefined,
      reload: vi.fn(),
    });
    await vi.advanceTimersByTimeAsync(3_599_999);
    expect(registration.update).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(registration.update).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(registration.update).toHaveBeenCalledTimes(2);
  });

  it('tells of a newly installed version and leaves it waiting for the next start; applied, it reloads the page once', async () => {
    const reload = vi.fn();
    const onUpdateWaiting = vi.fn<(apply: () => void) => void>();
    const { container, registration, asContainer } = fakeContainer();
    await registerServiceWorker({
      container: asContainer,
      whenStable: async () => undefined,
      reload,
      onUpdateWaiting,
    });
    const next = new FakeWorker();
    registration.installing = next;
    registration.dispatchEvent(new Event('updatefound'));
    next.become('installed');
    expect(onUpdateWaiting).toHaveBeenCalledOnce();
    expect(next.postMessage).not.toHaveBeenCalled();
    onUpdateWaiting.mock.calls[0]![0]();
    expect(next.postMessage).toHaveBeenCalledWith(SKIP_WAITING_MESSAGE);
    container.dispatchEvent(new Event('controllerchange'));
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('tells of a version that was already waiting, without activating it', async () => {
    const waiting = new FakeWorker();
    const onUpdateWaiting = vi.fn();
    const { asContainer } = fakeContainer({ waiting });
    await registerServiceWorker({
      container: asContainer,
      whenStable: async () => undefined,
      reload: vi.fn(),
      onUpdateWaiting,
    });
    expect(onUpdateWaiting).toHaveBeenCalledOnce();
    expect(waiting.postMessage).not.toHaveBeenCalled();
  });

  it('does not reload when the very first worker takes control', async () => {
    const reload = vi.fn();
    const { container, asContainer } = fakeContainer({ isControlled: false });
    await registerServiceWorker({
      container: asContainer,
      whenStable: async () => undefined,
      reload,
    });
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).not.toHaveBeenCalled();
  });
});
