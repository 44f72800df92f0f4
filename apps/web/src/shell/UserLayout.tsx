import { Outlet } from 'react-router';
import { Footer } from './Footer';
import { LanguageSwitch } from './LanguageSwitch';

/** Sign-in pages: centred content, language switch, footer. */
export function UserLayout() {
  return (
    <div className="crdp-user-layout">
      <div style={{ display: 'flex', justifyContent: 'flex-end', padding: '12px 24px' }}>
        <LanguageSwitch />
      </div>
      <main
        style={{
          flex: 1,
          display: 'flex',
          alignItems: 'flex-start',
          justifyContent: 'center',
          padding: '5vh 16px',
        }}
      >
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
