import { cleanup, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { isChunkLoadError, ScreenBoundary } from '../../../src/client/shell/screen-boundary';

// A screen whose code cannot be fetched (the network dropped before the service worker held
// it) shows a message in the page instead of taking the whole app down; another screen clears it.

afterEach(cleanup);

const CHROMIUM_FAILURE = new TypeError(
  'Failed to fetch dynamically imported module: http://127.0.0.1/assets/leaderboard-page-x1.js',
);

function screenAt(path: string, Screen: React.ComponentType) {
  return (
    <ScreenBoundary resetKey={path}>
      <Suspense fallback={<p>Loading</p>}>
        <Screen />
      </Suspense>
    </ScreenBoundary>
  );
}

it('says the screen is not on the device yet when its code fails to arrive, and a new screen clears it', async () => {
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  const Unreachable = lazy(() => Promise.reject(CHROMIUM_FAILURE));
  const { rerender } = render(screenAt('/leaderboard', Unreachable));
  expect(
    await screen.findByRole('heading', { name: "This screen isn't on your device yet" }),
  ).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();

  rerender(screenAt('/dashboard', () => <h1>Dashboard</h1>));
  expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  quiet.mockRestore();
});

it('says something went wrong for any other error while drawing', async () => {
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  const Broken = () => {
    throw new Error('boom');
  };
  render(screenAt('/profile', Broken));
  expect(
    await screen.findByRole('heading', { name: 'Something went wrong on this screen' }),
  ).toBeTruthy();
  quiet.mockRestore();
});

it('knows a failed chunk in each browser’s words', () => {
  expect(isChunkLoadError(CHROMIUM_FAILURE)).toBe(true);
  expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
  expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /a.js'))).toBe(
    true,
  );
  expect(isChunkLoadError(new Error('boom'))).toBe(false);
});
