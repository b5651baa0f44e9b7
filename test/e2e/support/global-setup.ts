import type { TestProject } from 'vitest/node';
import { findBrowser, type BrowserFound } from '../../support/find-browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium every e2e file launches, or why there is none (each file then fails with it). */
    chromium: BrowserFound;
  }
}

/**
 * Runs once before the e2e files: finds (or installs) a Chromium, saying in one line what it
 * installs. A missing browser is not thrown here, so that every e2e file fails with the reason
 * instead of the whole run stopping with a stack trace.
 */
export default async function setup(project: TestProject): Promise<void> {
  const found = await findBrowser({ log: (line) => process.stdout.write(`${line}\n`) });
  if ('problem' in found) process.stdout.write(`${found.problem}\n`);
  project.provide('chromium', found);
}
