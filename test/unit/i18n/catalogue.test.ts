import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { AREAS, LOCALES, type Catalogue, type Locale } from '../../../renderer/src/i18n/catalogues/index.js';

/**
 * The interface's catalogues are complete and well formed in every language, and no text of the
 * interface bypasses them: a person who chose 日本語 never meets a missing key, a broken message,
 * an English word left over, or a literal someone wrote straight into the JSX.
 */

const OTHERS = LOCALES.filter((l): l is Exclude<Locale, 'en'> => l !== 'en');

/** The plural categories a language must write out (CLDR): `other` everywhere, `one` too where a language has it. */
const PLURAL_CATEGORIES: Record<Locale, readonly string[]> = { en: ['one', 'other'], de: ['one', 'other'], 'zh-Hans': ['other'], ja: ['other'] };

/**
 * Names that stay as they are in every language: a translation may equal the English when, once
 * these, its arguments, its tags and code-like words (paths, globs, `pk_…`) are taken out, no word
 * is left ("Parley", "TOML", "{count} MB", "docs/*.md").
 */
const NAMES = [
  ...['Parley', 'API', 'APIs', 'MCP', 'TOML', 'GGUF', 'URL', 'URLs', 'OpenAI', 'Anthropic', 'Ollama', 'JSON', 'CSV', 'PDF', 'HTTP', 'HTTPS', 'ID', 'SQL', 'SQLite', 'Markdown', 'LLM', 'Electron', 'Hugging Face'],
  ...['GPT4All', 'LM Studio', 'Jan', 'SHA-256', 'npm'],
  // Keys as keyboards print them, units as symbols.
  ...['Ctrl', 'Shift', 'Esc', 'Enter', 'Tab', 'Alt', 'Cmd', 'B', 'KB', 'kB', 'MB', 'GB', 'TB', 's', 'ms', 'px'],
];

/** Words German writes as English does; a German text made of these alone may equal the English. */
const SAME_IN_GERMAN = ['Admin', 'Name', 'Status', 'Details', 'Feedback', 'Workflow', 'Workflows', 'Token', 'Tokens', 'Chat', 'Chats', 'Start', 'System', 'Export', 'Import', 'Filter', 'Server', 'Prompt', 'Prompts', 'Tag', 'Tags', 'Online', 'Offline', 'Cache', 'Tools', 'Text', 'Dashboard', 'Trial', 'Super', 'Modus', 'Embeddings', 'Embedding', 'Agent', 'Version', 'Limit', 'Limits', 'Support', 'Standard', 'Temperatur', 'OK', 'Ok', 'Host', 'Port', 'Link', 'Links', 'Plan', 'Upload', 'Uploads', 'Download', 'Downloads', 'Blind', 'Optional', 'Tool'];

/** Single keys whose translation is rightly the English one (each with why). Keep it short. */
const SAME_BY_KEY: Readonly<Record<string, readonly Locale[]>> = {};

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether nothing but names, code-like words and punctuation is left of `text`. */
function onlyNames(text: string, names: readonly string[]): boolean {
  let rest = text;
  for (const name of [...names].sort((a, b) => b.length - a.length)) rest = rest.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?![\\p{L}\\p{N}])`, 'gu'), ' ');
  // A lone capital is a key ("Ctrl+Shift+O").
  const words = rest.split(/[\s+]+/).filter((word) => /\p{L}/u.test(word) && !/[/*_]|\p{L}\.\p{L}/u.test(word) && !/^\p{Lu}$/u.test(word));
  return words.length === 0;
}

/** The message's own text, arguments and tags taken out. */
function literalText(elements: readonly MessageFormatElement[]): string {
  const parts: string[] = [];
  for (const element of elements) {
    if (element.type === TYPE.literal) parts.push(element.value);
    else if (element.type === TYPE.tag) parts.push(literalText(element.children));
    else if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) parts.push(literalText(option.value));
  }
  return parts.join(' ');
}

/**
 * What a message needs from its caller: each argument's name and `<tag>` of each tag; plural
 * options per plural argument. Types may differ: a language may need a plural where English
 * prints the number as it is.
 */
function shapeOf(elements: readonly MessageFormatElement[], into = { args: new Set<string>(), plurals: new Map<string, Set<string>>() }) {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        into.args.add(element.value);
        break;
      case TYPE.number:
        into.args.add(element.value);
        break;
      case TYPE.date:
      case TYPE.time:
        into.args.add(element.value);
        break;
      case TYPE.tag:
        into.args.add(`<${element.value}>`);
        shapeOf(element.children, into);
        break;
      case TYPE.select:
        into.args.add(element.value);
        for (const option of Object.values(element.options)) shapeOf(option.value, into);
        break;
      case TYPE.plural: {
        into.args.add(element.value);
        const options = into.plurals.get(element.value) ?? new Set<string>();
        for (const [key, option] of Object.entries(element.options)) {
          options.add(key);
          shapeOf(option.value, into);
        }
        into.plurals.set(element.value, options);
        break;
      }
      default:
        break;
    }
  }
  return into;
}

describe('the message catalogues', () => {
  for (const [area, files] of Object.entries(AREAS) as Array<[string, Record<Locale, Catalogue>]>) {
    describe(`area ${area}`, () => {
      it(`every key starts with "${area}."`, () => {
        expect(Object.keys(files.en).filter((k) => !k.startsWith(`${area}.`))).toEqual([]);
      });

      for (const locale of OTHERS) {
        it(`${locale} has exactly the English keys`, () => {
          const en = Object.keys(files.en).sort();
          const theirs = Object.keys(files[locale]).sort();
          expect({ missing: en.filter((k) => !theirs.includes(k)), extra: theirs.filter((k) => !en.includes(k)) }).toEqual({ missing: [], extra: [] });
        });
      }

      for (const locale of LOCALES) {
        it(`${locale}: every message parses and asks for what the English one asks for`, () => {
          const problems: string[] = [];
          for (const [key, message] of Object.entries(files[locale])) {
            let shape: ReturnType<typeof shapeOf>;
            try {
              shape = shapeOf(parse(message));
            } catch (error) {
              problems.push(`${key}: does not parse (${String(error)})`);
              continue;
            }
            for (const [argument, options] of shape.plurals) {
              // `=1` words the single case as `one` would.
              const needed = PLURAL_CATEGORIES[locale].filter((c) => !options.has(c) && !(c === 'one' && options.has('=1')));
              if (needed.length > 0) problems.push(`${key}: plural {${argument}} lacks ${needed.join(', ')}`);
            }
            const english = files.en[key];
            if (locale === 'en' || english === undefined) continue;
            let expected: Set<string>;
            try {
              expected = shapeOf(parse(english)).args;
            } catch {
              continue; // Reported under en.
            }
            const got = [...shape.args].sort();
            const want = [...expected].sort();
            if (got.join('|') !== want.join('|')) problems.push(`${key}: arguments ${got.join(' ')} instead of ${want.join(' ')}`);
          }
          expect(problems).toEqual([]);
        });
      }

      for (const locale of OTHERS) {
        it(`${locale} translates every message (none left as the English)`, () => {
          const words = locale === 'de' ? [...NAMES, ...SAME_IN_GERMAN] : NAMES;
          const untranslated = Object.entries(files[locale])
            .filter(([key, message]) => message === files.en[key] && !SAME_BY_KEY[key]?.includes(locale))
            .filter(([, message]) => {
              try {
                return !onlyNames(literalText(parse(message)), words);
              } catch {
                return true;
              }
            })
            .map(([key]) => key);
          expect(untranslated).toEqual([]);
        });
      }
    });
  }
});

describe('the interface holds no literal text', () => {
  // The lint configuration's own rules (eslint.config.js), so that `npm test` fails on a literal as `npm run lint` does.
  const eslint = new ESLint({ cwd: process.cwd() });
  const i18nProblems = (results: ESLint.LintResult[]) =>
    results.flatMap((r) => r.messages.filter((m) => m.ruleId?.startsWith('formatjs/')).map((m) => `${r.filePath.slice(process.cwd().length + 1)}:${m.line}:${m.column} ${m.message}`));

  it('the rules apply to the renderer: a literal in JSX or in a label is caught', async () => {
    const probe = "export const Probe = () => <p title=\"Hello\">Hello</p>;\nexport const ROUTE = { label: 'Chat' };\n";
    const results = await eslint.lintText(probe, { filePath: 'renderer/src/probe.tsx' });
    expect(i18nProblems(results)).toHaveLength(3);
  });

  it('no file of renderer/src writes text outside the catalogues', async () => {
    const results = await eslint.lintFiles(['renderer/src']);
    expect(i18nProblems(results)).toEqual([]);
  });
});
