import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { configureClient } from './api/client';
import { loadAccess } from './app/auth-flow';
import { bootFromAddress } from './app/boot';
import { currentLocale } from './app/i18n';
import { Providers } from './app/providers';
import { getSession } from './app/session';
import { reloadOnMissingChunks } from './app/upgrade';
import './styles.css';

configureClient({ getToken: () => getSession().token, getLanguage: currentLocale });
// A tab left open across an upgrade loads the new version when it asks for a chunk that is gone.
reloadOnMissingChunks();

const root = createRoot(document.getElementById('root')!);
// The address is read before the router starts, so the first guarded page already sees the
// session a hand-off code (`SessionKey`) or a free-access `key` brought.
void bootFromAddress().then((boot) => {
  // The current user and the menus are asked for now, while the shell's code downloads; the
  // guard joins this load, and the page starts as soon as what is known allows (issue 16).
  const s = getSession();
  if (
    boot.kind === 'ready' &&
    s.token &&
    !s.ssh &&
    !s.access &&
    !window.location.pathname.startsWith('/user/')
  )
    loadAccess().catch(() => {
      // The guard asks again and logs out on a failure (spec 000 section 4).
    });
  root.render(
    <StrictMode>
      <Providers>
        <App boot={boot} />
      </Providers>
    </StrictMode>,
  );
});
