import { describe, expect, it } from 'vitest';
import { parseHash } from '../../../renderer/src/app/routes.js';
import { LOCAL_MODELS_HASH, SETTINGS_SECTIONS, settingsHref, settingsSectionOf } from '../../../renderer/src/pages/settings/sections.js';

describe('the sections of Settings, each at its own address', () => {
  it('reads the section from the address, and every section’s link leads back to it', () => {
    expect(settingsSectionOf('#/settings/models')).toBe('models');
    expect(settingsSectionOf('#/settings/local-models')).toBe('local-models');
    expect(settingsSectionOf('#/settings/api')).toBe('api');
    for (const section of SETTINGS_SECTIONS) {
      expect(settingsSectionOf(settingsHref(section.id))).toBe(section.id);
      expect(parseHash(section.href)).toBe('settings');
    }
  });

  it('opens General for #/settings and for an address it does not know (an old bookmark, a typo)', () => {
    expect(settingsSectionOf('#/settings')).toBe('general');
    expect(settingsSectionOf('#/settings/')).toBe('general');
    expect(settingsSectionOf('#/settings/nowhere')).toBe('general');
  });

  it('keeps the home screen’s “More models and endpoints” link on Local models, scrolled to the catalogue', () => {
    expect(settingsSectionOf(LOCAL_MODELS_HASH)).toBe('local-models');
    expect(LOCAL_MODELS_HASH).not.toBe(settingsHref('local-models'));
  });
});
