import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'worker_threads', 'url', 'util', 'stream', 'events', 'net', 'http'];

/** Import boundaries: each runtime's files may only reach what runs there. */
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': true, 'ts-expect-error': 'allow-with-description' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: restrict([...NODE_BUILTINS, 'electron', 'electron/*', 'fastify', 'better-sqlite3', '**/main/**', '**/renderer/**', '**/preload/**'], 'shared/ holds contracts only: no Node, Electron, server or UI imports.'),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/vite.config.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict([...NODE_BUILTINS, 'electron', '**/main/**', '**/preload/**'], 'The renderer talks to main only through the API client.'),
  },
  // Later blocks replace the rule for their files, so the narrower core block comes last.
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron.ts'],
    rules: {
      // electron throws when required under Node (tests, served mode): only the entry may import it.
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Inject Electron from main/electron.ts.', allowTypeImports: true }], patterns: [{ group: ['**/renderer/**'], message: 'main never imports the renderer.' }] }],
    },
  },
  {
    files: ['main/core/**/*.ts', 'main/db/**/*.ts'],
    rules: restrict(['electron', 'electron/*', 'fastify', '@fastify/*', '**/transport/**', '**/renderer/**'], 'The core never knows its transport or Electron.'),
  },
);
