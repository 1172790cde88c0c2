import { RotateCw, WifiOff } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { AppPage } from './app-page';

// Each screen's code is its own chunk, fetched when the screen first opens; the service worker
// keeps them all once it has settled. Before that (a first visit whose network drops) a screen's
// chunk can fail to arrive, and an error while drawing, with nothing to catch it, makes React
// drop the whole app: a blank page. This boundary keeps the shell and says what happened
// instead, with a way to try again. Moving to another screen clears it.

const SCREEN_ERROR_TEXT = {
  pageTitle: 'Screen unavailable',
  offlineTitle: "This screen isn't on your device yet",
  offline: 'It opens once you are back online.',
  brokenTitle: 'Something went wrong on this screen',
  broken: 'Reloading usually fixes it. Your data is safe on this device.',
  retry: 'Try again',
};

/** A screen's code that could not be fetched (Chromium, Firefox and Safari word it differently). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
    message,
  );
}

interface ScreenBoundaryProps {
  children: ReactNode;
  /** The screen's address: a new one clears the error. */
  resetKey: string;
}

interface ScreenBoundaryState {
  error: unknown;
  resetKey: string;
}

export class ScreenBoundary extends Component<ScreenBoundaryProps, ScreenBoundaryState> {
  override state: ScreenBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ScreenBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(
    props: ScreenBoundaryProps,
    state: ScreenBoundaryState,
  ): Partial<ScreenBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A screen failed to draw', error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    const isOffline = isChunkLoadError(this.state.error);
    // In the page's frame, as every screen is: its margins and width, and a title for the tab.
    return (
      <AppPage title={SCREEN_ERROR_TEXT.pageTitle} isTitleHidden>
        <Card>
          <EmptyState
            icon={isOffline ? <WifiOff size={26} /> : <RotateCw size={26} />}
            title={isOffline ? SCREEN_ERROR_TEXT.offlineTitle : SCREEN_ERROR_TEXT.brokenTitle}
            action={
              // A failed chunk stays failed in this page's module map: a reload fetches it anew.
              <Button
                icon={<RotateCw size={16} aria-hidden="true" />}
                onClick={() => window.location.reload()}
              >
                {SCREEN_ERROR_TEXT.retry}
              </Button>
            }
          >
            {isOffline ? SCREEN_ERROR_TEXT.offline : SCREEN_ERROR_TEXT.broken}
          </EmptyState>
        </Card>
      </AppPage>
    );
  }
}

/** Around an optional part of the chrome whose code may fail to arrive: it then shows nothing. */
export class QuietBoundary extends Component<{ children: ReactNode }, { hasFailed: boolean }> {
  override state = { hasFailed: false };

  static getDerivedStateFromError(): { hasFailed: boolean } {
    return { hasFailed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.warn('An optional part of the page failed to load', error);
  }

  override render() {
    return this.state.hasFailed ? null : this.props.children;
  }
}
