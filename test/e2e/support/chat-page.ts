import type { Locator, Page } from 'playwright-core';
import type { E2eSuite } from './browser.js';
import { visible } from './browser.js';

export interface ChatPage {
  /** The message box. */
  composer(): Locator;
  /** Every answer of the thread shown. */
  answers(): Locator;
  lastAnswer(): Locator;
  /** Opens a new chat and waits for its empty state. */
  newChat(): Promise<void>;
  /** Sends `text` to the model named `model` (a name registered in `models`, or a model id). */
  ask(text: string, model: string): Promise<void>;
}

/**
 * The chat screen as the chat e2e files work it. `page` is read at each call (files open their
 * page in `beforeAll`); `models` maps the names the tests use to registered model ids.
 */
export function chatPage(page: () => Page, suite: E2eSuite, models: Record<string, string> = {}): ChatPage {
  const composer = () => page().getByLabel('Message', { exact: true });
  const answers = () => page().getByRole('article', { name: 'Answer' });
  return {
    composer,
    answers,
    lastAnswer: () => answers().last(),
    async newChat() {
      await page().goto(`${suite.served.url}/#/chat`);
      await visible(page().getByRole('heading', { name: 'What would you like to know?' }));
    },
    async ask(text, model) {
      await page().getByLabel('Model').selectOption(models[model] ?? model);
      await composer().fill(text);
      await composer().press('Enter');
    },
  };
}
