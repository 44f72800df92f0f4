import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { configureClient } from './api/client';
import { bootFromAddress } from './app/boot';
import { currentLocale } from './app/i18n';
import { Providers } from './app/providers';
import { getSession } from './app/session';
import './styles.css';

configureClient({ getToken: () => getSession().token, getLanguage: currentLocale });

const root = createRoot(document.getElementById('root')!);
// The address is read before the router starts, so the first guarded page already sees the
// session a hand-off code (`SessionKey`) or a free-access `key` brought.
void bootFromAddress().then((boot) => {
  root.render(
    <StrictMode>
      <Providers>
        <App boot={boot} />
      </Providers>
    </StrictMode>,
  );
});
