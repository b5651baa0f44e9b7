import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { client } from './api/index.js';
import { App } from './app/App.js';
import { startTheme } from './app/theme.js';
import { I18nProvider } from './i18n/I18nProvider.js';
import { currentLocale } from './i18n/locale.js';
import { ErrorBoundary } from './ui/ErrorBoundary.js';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

startTheme(client);
document.documentElement.lang = currentLocale();

createRoot(root).render(
  <StrictMode>
    <I18nProvider>
      <ErrorBoundary what="app" splash>
        <App />
      </ErrorBoundary>
    </I18nProvider>
  </StrictMode>,
);
