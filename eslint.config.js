// ESLint: TypeScript rules everywhere, React hooks rules on the client, the import direction
// of docs/architecture.md §2 (domain imports nothing of ours; server and client never import each
// other; the service worker imports the domain only), the client's boundaries between its
// features (bulletproof-react's zones), no import cycles, and kebab-case file and folder names.
import { existsSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import checkFile from 'eslint-plugin-check-file';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

// Zod comes through src/domain/schemas/zod.ts everywhere (it sets zod up before any schema is built).
const ZOD = {
  name: 'zod',
  message: "Import z from src/domain/schemas/zod.ts, never 'zod' itself: it configures zod first.",
};

const layer = (message, patterns, { allowZod = false } = {}) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: allowZod ? [] : [ZOD],
      patterns: patterns.map((pattern) => ({ group: [pattern], message })),
    },
  ],
});

// The client's boundaries (src/client/README.md). A feature folder imports ui/, data/, shell/
// and the domain, never another feature, except through a seam below; data/ imports no
// feature and not shell/ (the toasts come in through data/notices.ts); ui/ imports only ui/
// and the domain; shell/ draws the frame and imports a feature only through a seam below.
const FEATURES = [
  'public',
  'auth',
  'profile',
  'groups',
  'leaderboard',
  'dashboard',
  'bets',
  'pwa',
  'push',
  'inbox',
  'stats',
  'share',
  'seasons',
  'rounds',
];

// The seams: one folder using another feature's public part, each with why. Keep them few;
// a thing many features need is generic and belongs in ui/ or data/.
const SEAMS = [
  {
    folder: 'profile',
    imports: ['auth/register-fields.tsx', 'auth/register-submit.tsx', 'auth/auth-form.module.css'],
    why: 'upgrading a guest and editing an account are account forms: the fields and layout of auth',
  },
  {
    folder: 'profile',
    imports: ['push/push-settings-card.tsx'],
    why: 'the profile page shows the push toggle',
  },
  {
    folder: 'profile',
    imports: ['pwa/install-card.tsx'],
    why: 'the profile page shows how to install Hunch',
  },
  {
    folder: 'groups',
    imports: ['bets/bet-list.tsx', 'bets/bet-modals.tsx'],
    why: "a group's pages list its bets and start a new one",
  },
  {
    folder: 'groups',
    imports: ['push/push-prompt.tsx'],
    why: 'a join offers the push prompt (a lazy import)',
  },
  {
    folder: 'share',
    imports: ['auth/auth-layout.tsx', 'auth/use-sign-up-offer.ts', 'groups/use-groups.ts'],
    why: "a shared bet's public page is an account screen's frame with its sign-up offer, and sends a member to the bet",
  },
  {
    folder: 'bets',
    imports: ['groups/use-groups.ts'],
    why: "a bet screen reads its group and the player's membership",
  },
  {
    folder: 'dashboard',
    imports: [
      'bets/bet-card.tsx',
      'bets/bet-modals.tsx',
      'bets/bet-summary-card.tsx',
      'bets/resolve-card.tsx',
      'bets/use-bets.ts',
    ],
    why: 'the dashboard queues the bets to wager on and to resolve, and lists the open ones, with their cards',
  },
  {
    folder: 'dashboard',
    imports: ['groups/group-modals.tsx', 'groups/use-groups.ts'],
    why: 'a queued bet shows its group; with no group, the dashboard offers to join one',
  },
  {
    folder: 'leaderboard',
    imports: ['groups/group-modals.tsx'],
    why: 'with no group, the leaderboard offers to join one',
  },
  {
    folder: 'pwa',
    imports: ['push/push-session.ts'],
    why: 'the app start starts push once someone is signed in (a lazy import)',
  },
  {
    folder: 'push',
    imports: ['pwa/register-service-worker.ts'],
    why: 'subscribing registers the service worker if the app has not yet',
  },
  {
    folder: 'shell',
    imports: ['groups/group-modals.tsx', 'groups/use-groups.ts'],
    why: "the header's group corner shows the active group and switches or joins one",
  },
  {
    folder: 'shell',
    imports: ['profile/account-modals.tsx'],
    why: "the header's guest badge opens the account upgrade",
  },
  {
    folder: 'shell',
    imports: ['pwa/offline-indicator.tsx'],
    why: 'the frame shows the offline banner',
  },
  {
    folder: 'profile',
    imports: ['inbox/notification-choices-card.tsx'],
    why: 'the profile page shows which kinds reach push and what is muted, next to the push toggle',
  },
  {
    folder: 'groups',
    imports: ['inbox/mute-button.tsx'],
    why: "a group's page mutes its notifications",
  },
  {
    folder: 'bets',
    imports: ['inbox/mute-button.tsx'],
    why: "a bet's page mutes its notifications",
  },
  {
    folder: 'bets',
    imports: ['share/share-button.tsx'],
    why: "a resolved bet's page shares its card (drawn in a lazy chunk)",
  },
  {
    folder: 'rounds',
    imports: ['groups/use-groups.ts'],
    why: 'the rounds page reads its group and whether the player is its admin',
  },
  {
    folder: 'seasons',
    imports: ['groups/use-groups.ts'],
    why: 'the seasons page reads its group and whether the player is its admin',
  },
  {
    folder: 'groups',
    imports: ['seasons/season-banner.tsx'],
    why: "a group's page shows its running season (a lazy import)",
  },
  {
    folder: 'leaderboard',
    imports: ['seasons/season-banner.tsx'],
    why: 'the leaderboard shows the running season (a lazy import)',
  },
  {
    folder: 'seasons',
    imports: ['share/share-button.tsx'],
    why: "a past season's podium is shared as a card (drawn in a lazy chunk)",
  },
  {
    folder: 'shell',
    imports: ['bets/bet-modals.tsx'],
    why: "the footer's start-bet button opens the new-bet form (a lazy import)",
  },
];

const CLIENT = 'src/client';

// A seam naming a file that is gone would quietly allow nothing: say so instead.
for (const file of SEAMS.flatMap((seam) => seam.imports)) {
  if (!existsSync(new URL(`${CLIENT}/${file}`, import.meta.url)))
    throw new Error(`eslint.config.js: the seam ${file} names no file in ${CLIENT}`);
}

/** What `folder` may take from the feature `from`: its seams, as paths inside `from`. */
const seamFiles = (folder, from) =>
  SEAMS.filter((seam) => seam.folder === folder)
    .flatMap((seam) => seam.imports)
    .filter((file) => file.startsWith(`${from}/`))
    .map((file) => `./${file.slice(from.length + 1)}`);

const featureZones = (folder, message) =>
  FEATURES.filter((from) => from !== folder).map((from) => ({
    target: `${CLIENT}/${folder}`,
    from: `${CLIENT}/${from}`,
    except: seamFiles(folder, from),
    message,
  }));

const CLIENT_ZONES = [
  ...FEATURES.flatMap((feature) =>
    featureZones(
      feature,
      'A client feature imports ui/, data/, shell/ and the domain, not another feature, except through a seam declared in eslint.config.js (SEAMS).',
    ),
  ),
  ...featureZones(
    'shell',
    'shell/ draws the frame: it imports a feature only through a seam declared in eslint.config.js (SEAMS).',
  ),
  {
    target: `${CLIENT}/data`,
    from: [...FEATURES, 'shell', 'ui'].map((folder) => `${CLIENT}/${folder}`),
    message:
      'data/ imports no feature, no shell/ and no ui/: what it needs comes in (the toasts through data/notices.ts).',
  },
  {
    target: `${CLIENT}/ui`,
    from: [...FEATURES, 'shell', 'data'].map((folder) => `${CLIENT}/${folder}`),
    message: 'ui/ holds generic widgets: it imports only ui/ and the domain.',
  },
  {
    target: [...FEATURES, 'shell', 'data', 'ui'].map((folder) => `${CLIENT}/${folder}`),
    from: [`${CLIENT}/app.tsx`, `${CLIENT}/main.tsx`],
    message: 'app.tsx and main.tsx put the app together; nothing imports them.',
  },
];

// A test waits for a signal, never for a fixed time (docs/conventions.md, Tests): the ways to
// wait are in docs/testing.md ("Waiting"). A timer that is not a wait (a value handed to the code
// under test, a stand-in that must answer late on purpose) stays only with
// `// eslint-disable-next-line no-restricted-syntax -- <why>`; a hang guard uses tests/hang-guard.ts.
const WAITING = 'See docs/testing.md ("Waiting").';
const NOT_A_WAIT =
  'A timer that is not a wait says why: `// eslint-disable-next-line no-restricted-syntax -- <reason>`; a hang guard is tests/hang-guard.ts.';
const NO_FIXED_WAITS = [
  {
    selector: "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout']",
    message: `A test does not sleep: wait for what it waits for (vi.waitFor or expect.poll on the condition, an event, an idle() of the code under test), or use fake timers (vi.useFakeTimers) where the code itself waits on time. ${WAITING}`,
  },
  {
    selector:
      "CallExpression[callee.name='setTimeout']:not(NewExpression[callee.name='Promise'] CallExpression), CallExpression[callee.object.name=/^(globalThis|window|global|self)$/][callee.property.name='setTimeout']",
    message: `A timer in a test is usually a wait: wait for the signal instead (vi.waitFor, expect.poll, an event), or use fake timers. ${NOT_A_WAIT} ${WAITING}`,
  },
  {
    selector: "CallExpression[callee.property.name='waitForTimeout']",
    message: `Playwright waits by itself: expect(locator).toBeVisible() and its kin, page.waitForResponse, expect.poll. ${WAITING}`,
  },
  {
    selector: 'CallExpression[callee.name=/^(sleep|delay)$/]',
    message: `A test does not sleep: vi.waitFor, expect.poll, an event or fake timers. ${WAITING}`,
  },
  {
    selector:
      'ImportDeclaration[source.value=/^(node:)?timers.promises$/], ImportExpression[source.value=/^(node:)?timers.promises$/]',
    message: `timers/promises is for sleeping: wait for the signal instead (vi.waitFor, expect.poll, an event), or use fake timers. ${WAITING}`,
  },
];
// An end-to-end test's time limit is the config's (playwright.config.ts), a hang guard: a walk
// that needs longer is split into several tests.
const NO_OWN_TEST_TIMEOUTS = [
  {
    selector:
      "CallExpression[callee.property.name='setTimeout']:not([callee.object.name=/^(globalThis|window|global|self)$/])",
    message:
      "No e2e test sets its own time limit (test.setTimeout, testInfo.setTimeout): the config's is the hang guard; split a longer walk into several tests.",
  },
  {
    selector: "CallExpression[callee.property.name='slow']",
    message:
      "No e2e test triples its time limit (test.slow): the config's is the hang guard; split a longer walk into several tests.",
  },
  {
    selector:
      "CallExpression[callee.object.property.name='describe'][callee.property.name='configure'] Property[key.name='timeout']",
    message:
      "No e2e test sets its own time limit (test.describe.configure({ timeout })): the config's is the hang guard; split a longer walk into several tests.",
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      '.tmp/**',
      'test-results/**',
      'playwright-report/**',
      'src/server/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Rules that read the types, on every TypeScript file, tests included: a floating promise
    // in a test hides its failure. A rejection is awaited, or caught and reported; a deliberate
    // fire-and-forget says so with `void` and a comment; an async event handler goes through
    // asyncHandler (src/client/ui/async-handler.ts). A switch over a union names every member,
    // or says why its default stands for the rest. `project` rather than `projectService`: on
    // the command line the program is built once, the cheaper of the two on 2 cores.
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    // Kebab-case names (a role suffix after a dot is its own word: bets.routes.ts, *.test.ts).
    files: ['{src,src-sw,tests,scripts}/**/*.{ts,tsx,js,mjs}'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx,js,mjs}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { '**/': 'KEBAB_CASE' }],
    },
  },
  {
    // Imports resolved as the bundler does (extensionless TypeScript), for the two rules below.
    files: ['src/**/*.{ts,tsx}', 'src-sw/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x skips .ts and .tsx files when it follows imports (no cycle found).
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: CLIENT_ZONES }] },
  },
  {
    // The benchmarks (tests/perf) measure time; the tests wait for signals.
    files: ['tests/**/*.{ts,tsx,js,mjs}'],
    ignores: ['tests/perf/**'],
    rules: { 'no-restricted-syntax': ['error', ...NO_FIXED_WAITS] },
  },
  {
    files: ['tests/e2e/**/*.{ts,tsx,js,mjs}'],
    rules: { 'no-restricted-syntax': ['error', ...NO_FIXED_WAITS, ...NO_OWN_TEST_TIMEOUTS] },
  },
  {
    // A spec's `test` closes the windows it opens (tests/e2e/fixtures.ts).
    files: ['tests/e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: "A spec takes `test` from './fixtures': it closes the windows a test opens.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...layer('The client imports src/domain, never src/server (docs/architecture.md §2).', [
        '**/server/**',
      ]),
    },
  },
  {
    // The rules carry no zod, so a screen that shows them loads none: types are plain
    // TypeScript, and the schemas (src/domain/schemas) import the rules, never the other way.
    files: ['src/domain/**/*.ts'],
    ignores: ['src/domain/schemas/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'zod',
              message: 'A rule file imports no zod: its schema goes in src/domain/schemas.',
            },
          ],
          patterns: [
            {
              group: ['**/server/**', '**/client/**', '**/src-sw/**'],
              message:
                'src/domain is pure: it imports nothing of ours outside src/domain (docs/architecture.md §2).',
            },
            {
              group: ['zod/*', '**/schemas', '**/schemas/*', './schemas/**'],
              message: 'A rule file imports no zod: its schema goes in src/domain/schemas.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/domain/schemas/**/*.ts'],
    rules: layer(
      'src/domain is pure: it imports nothing of ours outside src/domain (docs/architecture.md §2).',
      ['**/server/**', '**/client/**', '**/src-sw/**'],
    ),
  },
  {
    files: ['src/domain/schemas/zod.ts'],
    rules: layer(
      'src/domain is pure: it imports nothing of ours outside src/domain (docs/architecture.md §2).',
      ['**/server/**', '**/client/**', '**/src-sw/**'],
      { allowZod: true },
    ),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: layer('The server imports src/domain, never src/client (docs/architecture.md §2).', [
      '**/client/**',
      '**/src-sw/**',
    ]),
  },
  {
    files: ['src-sw/**/*.ts'],
    rules: layer('The service worker imports src/domain only (docs/architecture.md §2).', [
      '**/server/**',
      '**/client/**',
    ]),
  },
);
