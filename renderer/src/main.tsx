import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { client } from './api/index.js';
import { App } from './app/App.js';
import { startTheme } from './app/theme.js';
import { ErrorBoundary } from './ui/ErrorBoundary.js';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

startTheme(client);

createRoot(root).render(
  <StrictMode>
    <ErrorBoundary what="Parley" splash>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
