// ESLint: TypeScript rules everywhere, React hooks rules on the client, and the import
// direction of ARCHITECTURE.md §2 (domain imports nothing of ours; server and client never
// import each other; the service worker imports the domain only).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Zod comes through src/domain/zod.ts everywhere (it sets zod up before any schema is built).
const ZOD = {
  name: 'zod',
  message: "Import z from src/domain/zod.ts, never 'zod' itself: it configures zod first.",
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
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...layer('The client imports src/domain, never src/server (ARCHITECTURE.md §2).', [
        '**/server/**',
      ]),
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: layer(
      'src/domain is pure: it imports nothing of ours outside src/domain (ARCHITECTURE.md §2).',
      ['**/server/**', '**/client/**', '**/src-sw/**'],
    ),
  },
  {
    files: ['src/domain/zod.ts'],
    rules: layer(
      'src/domain is pure: it imports nothing of ours outside src/domain (ARCHITECTURE.md §2).',
      ['**/server/**', '**/client/**', '**/src-sw/**'],
      { allowZod: true },
    ),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: layer('The server imports src/domain, never src/client (ARCHITECTURE.md §2).', [
      '**/client/**',
      '**/src-sw/**',
    ]),
  },
  {
    files: ['src-sw/**/*.ts'],
    rules: layer('The service worker imports src/domain only (ARCHITECTURE.md §2).', [
      '**/server/**',
      '**/client/**',
    ]),
  },
);
