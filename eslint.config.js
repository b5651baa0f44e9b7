import js from '@eslint/js';
import formatjs from 'eslint-plugin-formatjs';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'worker_threads', 'url', 'util', 'stream', 'events', 'net', 'http'];

/** What neither the core nor the database layer may import. */
const CORE_BANS = ['electron', 'electron/*', 'fastify', '@fastify/*', '**/transport/**', '**/renderer/**'];
const CORE_PATTERN = { group: CORE_BANS, message: 'The core never knows its transport or Electron.' };
/** The core sees repositories, never the storage engine (a PostgreSQL one could stand in). */
const STORAGE_PATTERN = { group: ['better-sqlite3', 'sqlite-vec'], message: 'Only main/db/ knows the storage engine: the core calls repository functions.' };
/** No handler is a library: a domain reaches another through its access/lookup modules, never its handlers.ts. */
const HANDLERS_PATTERN = { group: ['../*/handlers.js', '../../*/handlers.js'], message: "Another domain's handlers.ts is not a library: import its access.ts / lookup.ts (or move the function there)." };

/** The core's wings, bottom to top (docs/architecture.md). */
const WINGS = ['platform', 'models', 'knowledge', 'answering', 'conversation', 'service'];

/**
 * The interface speaks the user's language (renderer/src/i18n): no literal text in JSX, nor in the
 * props and object keys that carry text people read. Besides the HTML attributes the plugin checks
 * by default (aria-label, title/placeholder of DOM elements, alt of img), these are the text props
 * of our own components in renderer/src/ui (Alert title, Field label/hint, Loadable loading/failed,
 * ConfirmDialog confirmLabel, DataTable caption, …). test/unit/i18n/catalogue.test.ts runs the same
 * rules, so `npm test` fails on a literal as `npm run lint` does.
 */
export const I18N_TEXT_PROPS = '{label,title,placeholder,alt,caption,description,hint,confirmLabel,loading,failed,text,detail,message,summary,legend,heading,emptyText}';
export const I18N_OBJECT_KEYS = ['label', 'header', 'description', 'title', 'hint', 'placeholder', 'detail'];
export const I18N_RULES = {
  'formatjs/no-literal-string-in-jsx': ['error', { props: { include: [['*', I18N_TEXT_PROPS]] } }],
  'formatjs/no-literal-string-in-object': ['error', { include: I18N_OBJECT_KEYS }],
};

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
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    plugins: { formatjs },
    rules: I18N_RULES,
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
    files: ['main/db/**/*.ts'],
    rules: restrict([...CORE_BANS, '**/core/**', '**/search/**'], 'The database layer never knows its transport, Electron, search or the core: they depend on it, not the reverse.'),
  },
  {
    // Search sits below the core, beside main/db (which it reads through): the core calls its `rank`.
    files: ['main/search/**/*.ts'],
    rules: restrict([...CORE_BANS, '**/core/**'], 'Search never knows its transport, Electron or the core: the core depends on it, not the reverse.'),
  },
  // The conversation wing's domains, top to bottom (a domain imports only those below it):
  //   chat, comparisons, reports, suggestions  >  agents  >  threads  >  workflows  >  mcp.
  // Every one of them answers through main/core/answering/index.ts (nothing else of answering),
  // and answering imports nothing from conversation/.
  // The models wing's domains, top to bottom: embeddings  >  catalog  >  providers  >  local  >  routing.
  // The services every wing calls (providers, stream hub, local models, …) are small interfaces in
  // main/core/platform/ports/, implemented in their wings and wired by main/boot.ts.
  {
    files: ['main/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [CORE_PATTERN, STORAGE_PATTERN, HANDLERS_PATTERN] }],
      'no-restricted-syntax': ['error', { selector: "MemberExpression[object.property.name='repos'][property.name='db'], MemberExpression[object.name='repos'][property.name='db']", message: 'The core reaches the database through repository functions only; shutdown is service/lifecycle.ts.' }],
    },
  },
  // The core's wings, bottom to top; a wing imports itself and the wings below it, never one above
  // (test/unit/architecture/imports.test.ts checks the same on the import graph, types included,
  // and that no two domains import each other). The top wing, service, composes the rest.
  ...WINGS.slice(0, -1).map((wing, i) => ({
    files: [`main/core/${wing}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [CORE_PATTERN, STORAGE_PATTERN, HANDLERS_PATTERN, { group: WINGS.slice(i + 1).map((above) => `**/${above}/**`), message: `The ${wing} wing sits below ${WINGS.slice(i + 1).join(', ')}: it never imports them (declare what it needs as an interface below, or move the shared piece down).` }] }],
    },
  })),
);
