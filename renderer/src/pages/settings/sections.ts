import type { MessageId } from '../../i18n/catalogues/index.js';

/**
 * The parts of Settings, one shown at a time, each at its own address so that links, reloads and
 * Back land on it: `#/settings` (General), `#/settings/models`, `#/settings/local-models`,
 * `#/settings/api`.
 */
export const SETTINGS_SECTIONS = [
  { id: 'general', labelId: 'settings.sections.general', href: '#/settings' },
  { id: 'models', labelId: 'settings.sections.models', href: '#/settings/models' },
  { id: 'local-models', labelId: 'settings.sections.localModels', href: '#/settings/local-models' },
  { id: 'api', labelId: 'settings.sections.api', href: '#/settings/api' },
] as const satisfies readonly { id: string; labelId: MessageId; href: string }[];

/**
 * Where Home's "More models and endpoints" leads: Settings → Local models, scrolled to its
 * catalogue (ModelCatalog.tsx); `#/settings/local-models` alone shows that section from its top.
 */
export const LOCAL_MODELS_HASH = '#/settings/local-models/catalog';

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

/** `#/settings/<section>[/…]` → that section; `#/settings`, and any address it does not know, → General. */
export function settingsSectionOf(hash: string): SettingsSectionId {
  const segment = /^#\/settings\/([a-z-]+)/.exec(hash)?.[1];
  return SETTINGS_SECTIONS.find((s) => s.id === segment)?.id ?? 'general';
}

export function settingsHref(id: SettingsSectionId): string {
  return SETTINGS_SECTIONS.find((s) => s.id === id)?.href ?? '#/settings';
}
