/**
 * The message catalogues: one file per area of the interface and per language, merged here. Keys
 * are `<area>.<screen or part>.<what>`; values are ICU MessageFormat (`{count, plural, one {# file}
 * other {# files}}`). English is the source: every other language holds exactly its keys
 * (test/unit/i18n/catalogue.test.ts).
 */
import enAdmin from './en/admin.json' with { type: 'json' };
import enApp from './en/app.json' with { type: 'json' };
import enChat from './en/chat.json' with { type: 'json' };
import enCompare from './en/compare.json' with { type: 'json' };
import enDatasets from './en/datasets.json' with { type: 'json' };
import enErrors from './en/errors.json' with { type: 'json' };
import enSettings from './en/settings.json' with { type: 'json' };
import enUi from './en/ui.json' with { type: 'json' };
import deAdmin from './de/admin.json' with { type: 'json' };
import deApp from './de/app.json' with { type: 'json' };
import deChat from './de/chat.json' with { type: 'json' };
import deCompare from './de/compare.json' with { type: 'json' };
import deDatasets from './de/datasets.json' with { type: 'json' };
import deErrors from './de/errors.json' with { type: 'json' };
import deSettings from './de/settings.json' with { type: 'json' };
import deUi from './de/ui.json' with { type: 'json' };
import jaAdmin from './ja/admin.json' with { type: 'json' };
import jaApp from './ja/app.json' with { type: 'json' };
import jaChat from './ja/chat.json' with { type: 'json' };
import jaCompare from './ja/compare.json' with { type: 'json' };
import jaDatasets from './ja/datasets.json' with { type: 'json' };
import jaErrors from './ja/errors.json' with { type: 'json' };
import jaSettings from './ja/settings.json' with { type: 'json' };
import jaUi from './ja/ui.json' with { type: 'json' };
import zhAdmin from './zh-Hans/admin.json' with { type: 'json' };
import zhApp from './zh-Hans/app.json' with { type: 'json' };
import zhChat from './zh-Hans/chat.json' with { type: 'json' };
import zhCompare from './zh-Hans/compare.json' with { type: 'json' };
import zhDatasets from './zh-Hans/datasets.json' with { type: 'json' };
import zhErrors from './zh-Hans/errors.json' with { type: 'json' };
import zhSettings from './zh-Hans/settings.json' with { type: 'json' };
import zhUi from './zh-Hans/ui.json' with { type: 'json' };

const en = { ...enApp, ...enUi, ...enChat, ...enDatasets, ...enSettings, ...enAdmin, ...enCompare, ...enErrors };

/** Every message's id: a call naming another id does not compile. */
export type MessageId = keyof typeof en;
export type Catalogue = Readonly<Record<string, string>>;

export const LOCALES = ['en', 'zh-Hans', 'ja', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

export const CATALOGUES: Readonly<Record<Locale, Catalogue>> = {
  en,
  'zh-Hans': { ...zhApp, ...zhUi, ...zhChat, ...zhDatasets, ...zhSettings, ...zhAdmin, ...zhCompare, ...zhErrors },
  ja: { ...jaApp, ...jaUi, ...jaChat, ...jaDatasets, ...jaSettings, ...jaAdmin, ...jaCompare, ...jaErrors },
  de: { ...deApp, ...deUi, ...deChat, ...deDatasets, ...deSettings, ...deAdmin, ...deCompare, ...deErrors },
};

/** Per area, for the catalogue test: each language's file of each area. */
export const AREAS = {
  app: { en: enApp, 'zh-Hans': zhApp, ja: jaApp, de: deApp },
  ui: { en: enUi, 'zh-Hans': zhUi, ja: jaUi, de: deUi },
  chat: { en: enChat, 'zh-Hans': zhChat, ja: jaChat, de: deChat },
  datasets: { en: enDatasets, 'zh-Hans': zhDatasets, ja: jaDatasets, de: deDatasets },
  settings: { en: enSettings, 'zh-Hans': zhSettings, ja: jaSettings, de: deSettings },
  admin: { en: enAdmin, 'zh-Hans': zhAdmin, ja: jaAdmin, de: deAdmin },
  compare: { en: enCompare, 'zh-Hans': zhCompare, ja: jaCompare, de: deCompare },
  errors: { en: enErrors, 'zh-Hans': zhErrors, ja: jaErrors, de: deErrors },
} satisfies Record<string, Record<Locale, Catalogue>>;
