/// <reference lib="webworker" />
import type { PushNotification } from '../src/domain/push';

// Each push is shown as a notification, and a click opens or focuses its URL. The
// payload is {title, body, url, tag?} (src/domain/push.ts, PushNotification). It is
// checked by hand rather than with the zod schema: zod would triple this worker's size for
// four fields, and a malformed push still has to show something (a push that shows no
// notification is penalised by the browser).

const ICON = '/icons/icon-192.png';
const BADGE = '/icons/badge-96.png';
const FALLBACK: PushNotification = {
  title: 'Hunch',
  body: 'Something happened in your group.',
  url: '/dashboard',
};

/** The payload of a push, or a generic notification when it is missing or malformed. */
function readPushPayload(data: { json(): unknown } | null): PushNotification {
  let raw: unknown;
  try {
    raw = data?.json();
  } catch {
    return FALLBACK;
  }
  if (!raw || typeof raw !== 'object') return FALLBACK;
  const { title, body, url, tag } = raw as Record<string, unknown>;
  return {
    title: typeof title === 'string' && title ? title : FALLBACK.title,
    body: typeof body === 'string' ? body : FALLBACK.body,
    // Only an app path: a push must never send the player to another site.
    url:
      typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : FALLBACK.url,
    ...(typeof tag === 'string' && tag ? { tag } : {}),
  };
}

export function handlePushNotifications(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('push', (event: PushEvent) => {
    const payload = readPushPayload(event.data);
    event.waitUntil(
      scope.registration.showNotification(payload.title, {
        body: payload.body,
        icon: ICON,
        badge: BADGE,
        // The same tag replaces the earlier notification (e.g. odds moving again on one bet).
        ...(payload.tag ? { tag: payload.tag } : {}),
        data: { url: payload.url },
      }),
    );
  });

  scope.addEventListener('notificationclick', (event: NotificationEvent) => {
    event.notification.close();
    const path = (event.notification.data as { url?: unknown } | null)?.url;
    const url = new URL(typeof path === 'string' ? path : FALLBACK.url, scope.location.origin).href;
    event.waitUntil(openOrFocus(scope, url));
  });
}

/** Focuses a Hunch window already showing the URL, else brings one there, else opens one. */
async function openOrFocus(scope: ServiceWorkerGlobalScope, url: string): Promise<unknown> {
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const showing = windows.find((client) => client.url === url);
  if (showing) return showing.focus();
  const open = windows[0];
  if (open) {
    try {
      const focused = await open.focus();
      // navigate() works on windows this worker controls; otherwise a new window is opened.
      const navigated = await focused.navigate(url);
      if (navigated) return navigated;
    } catch (error) {
      console.warn('Could not bring the open window to the notification’s page', error);
    }
  }
  return scope.clients.openWindow(url);
}
