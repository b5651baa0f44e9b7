import type { Page } from 'playwright-core';
import { eventually } from './eventually.js';

/** Settings' sections as its sub-navigation names them (renderer/src/pages/settings/sections.ts). */
export type SettingsSection = 'General' | 'Models' | 'Local models' | 'Server and API keys';

/** Opens a section of Settings (already open) the way a person does: its link in the sub-navigation. */
export async function openSettingsSection(page: Page, name: SettingsSection): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name, exact: true });
  await link.click();
  await eventually(() => link.getAttribute('aria-current')).toBe('page');
}
