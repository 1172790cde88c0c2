import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { STORAGE_KEYS } from '../../src/domain/constants';

// Factories and steps the account specs share: a unique person, registering through the
// API (fast), signing in through the screen (what is under test), the mailed reset link.

let counter = 0;

export function newPerson() {
  const tag = `${Date.now().toString(36)}${(counter++).toString(36)}${Math.floor(Math.random() * 1e4)}`;
  return {
    firstName: 'Robin',
    lastName: 'Quill',
    displayName: `Robin ${tag.slice(-4)}`,
    username: `robin_${tag}`,
    email: `robin.${tag}@example.com`,
    password: 'Hunchy2024!',
  };
}
export type Person = ReturnType<typeof newPerson>;

export async function registerViaApi(request: APIRequestContext, person: Person = newPerson()) {
  const response = await request.post('/auth/register', {
    data: { ...person, passwordConfirm: person.password, appName: 'hunch', isTemporary: false },
  });
  expect(response.status(), await response.text()).toBe(201);
  return person;
}

/**
 * Signs in through the form. "Remember me" starts ticked (issue #42): `rememberMe: false`
 * unticks it (a session of this tab only), `true` makes sure of it, and leaving it out keeps
 * what the form offers.
 */
export async function signIn(
  page: Page,
  person: Pick<Person, 'email' | 'password'>,
  { rememberMe }: { rememberMe?: boolean } = {},
) {
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  if (rememberMe === true) await page.getByLabel('Remember me').check();
  if (rememberMe === false) await page.getByLabel('Remember me').uncheck();
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/**
 * Opens `path` signed in as `person`, remembered, as the sign-in form leaves a device: the
 * session is made through the API and written where the app keeps it, for the many tests about
 * something else (signing in through the form is accounts.spec.ts's).
 */
export async function openSignedIn(
  page: Page,
  person: Pick<Person, 'email' | 'password'>,
  path = '/dashboard',
): Promise<void> {
  // The page's context may already hold the CSRF cookie (a page visited before): echo it.
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN');
  const response = await page.request.post('/auth/login', {
    headers: csrf ? { 'X-XSRF-TOKEN': decodeURIComponent(csrf.value) } : {},
    data: { email: person.email, password: person.password, appName: 'hunch' },
  });
  expect(response.status(), await response.text()).toBe(200);
  const session = (await response.json()) as {
    accessToken: string;
    refreshToken: string;
    user: unknown;
  };
  // A small page of the same origin, so its localStorage is the app's.
  await page.goto('/robots.txt');
  await page.evaluate(
    ({ keys, session }) => {
      localStorage.setItem(keys.accessToken, session.accessToken);
      localStorage.setItem(keys.refreshToken, session.refreshToken);
      localStorage.setItem(keys.userData, JSON.stringify(session.user));
    },
    { keys: STORAGE_KEYS, session },
  );
  await page.goto(path);
}

/** A new player, registered through the API and signed in: on the dashboard. */
export async function signInNewPlayer(page: Page, request: APIRequestContext): Promise<Person> {
  const person = await registerViaApi(request);
  await openSignedIn(page, person);
  await expect(page).toHaveURL(/\/dashboard$/);
  return person;
}

/** The reset link mailed to `email`, read from DATA_DIR/outbox (no SMTP_URL in tests). */
export function readResetLink(email: string): Promise<string> {
  return readMailedLink(email, 'reset-password');
}

/** The link of `page` (`reset-password`, `confirm-email`) mailed to `email`, read from DATA_DIR/outbox. */
export async function readMailedLink(email: string, page: string): Promise<string> {
  const outbox = path.join(process.env.HUNCH_E2E_DATA_DIR!, 'outbox');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        let files: string[];
        try {
          files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
        } catch {
          return undefined; // no mail yet
        }
        for (const file of files) {
          // Undo quoted-printable soft line breaks and escapes before looking for the link.
          const mail = readFileSync(path.join(outbox, file), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/gi, '=');
          if (!mail.toLowerCase().includes(email.toLowerCase())) continue;
          link = mail.match(new RegExp(`https?://[^\\s"'<>]+/${page}/[A-Za-z0-9_-]+`))?.[0];
          if (link) return link;
        }
        return undefined;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return link!;
}
