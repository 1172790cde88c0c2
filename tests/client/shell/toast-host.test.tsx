import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastHost } from '../../../src/client/shell/toast-host';
import {
  createToastStore,
  TOAST_EXIT_MS,
  type ToastStore,
} from '../../../src/client/shell/toast-store';

let store: ToastStore;

beforeEach(() => {
  vi.useFakeTimers();
  store = createToastStore();
  render(<ToastHost store={store} />);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

describe('toasts (docs/accounts-and-shell.md §3, §4)', () => {
  it('announces toasts in a polite live region', () => {
    act(() => void store.success('Profile Updated!'));
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(screen.getByRole('status').textContent).toContain('Profile Updated!');
  });

  it('dismisses success, warning and info toasts after 5000 ms', () => {
    act(() => {
      store.success('Account Upgraded!');
      store.warning('Careful');
      store.info('Heads up');
    });
    advance(4999);
    expect(screen.getAllByRole('status')).toHaveLength(3);
    advance(1 + TOAST_EXIT_MS);
    expect(screen.queryAllByRole('status')).toHaveLength(0);
  });

  it('keeps error toasts until dismissed (duration 0)', () => {
    act(() => void store.error('Update failed. Please try again later.'));
    advance(60_000);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Update failed. Please try again later.');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    advance(TOAST_EXIT_MS);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('runs its optional action and then goes away', () => {
    const onClick = vi.fn();
    act(() => void store.info('A new version is ready', { action: { label: 'Reload', onClick } }));
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    advance(TOAST_EXIT_MS);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('has no dismiss button when it is not dismissible, and honours a custom duration', () => {
    act(() => void store.warning('Reconnecting... (1/5)', { dismissible: false, duration: 0 }));
    expect(screen.queryByRole('button', { name: 'Dismiss notification' })).toBeNull();
    advance(30_000);
    expect(screen.getByRole('status').textContent).toContain('Reconnecting... (1/5)');
  });
});
