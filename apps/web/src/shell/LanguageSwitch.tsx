import { TranslationOutlined } from '@ant-design/icons';
import { App } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../app/i18n';
import type LanguageMenuType from './LanguageMenu';

type MenuComponent = typeof LanguageMenuType;
let menuModule: Promise<MenuComponent> | null = null;
/** The menu's code (antd Dropdown and Menu), fetched once for every switch on the page. */
const loadMenu = () => {
  menuModule ??= import('./LanguageMenu').then(
    (m) => m.default,
    (e: unknown) => {
      menuModule = null; // the next pointer or click tries again
      throw e;
    },
  );
  return menuModule;
};

/**
 * zh-CN / en-US switch; server messages follow through Accept-Language, so cached data reloads.
 * `compact`: in the header, a phone shows the icon only (the label is its accessible name).
 * Drawing the button needs no menu: the menu's code loads when the pointer or the focus first
 * reaches the button, or on a click, which then opens it. The login page downloads none of it.
 */
export function LanguageSwitch({ style, compact }: { style?: React.CSSProperties; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [menu, setMenu] = useState<null | { Menu: MenuComponent; open: boolean; refocus: boolean }>(null);
  const plainRef = useRef<HTMLButtonElement>(null);
  const wantOpen = useRef(false);
  const button = (
    extra: Partial<React.ComponentProps<'button'>> & { ref?: React.Ref<HTMLButtonElement> },
  ) => (
    <button
      type="button"
      className="crdp-plain-button"
      aria-label={t('common.language')}
      data-testid="language-switch"
      style={style}
      {...extra}
    >
      <TranslationOutlined />{' '}
      <span className={compact ? 'crdp-narrow-hide' : undefined}>
        {LANGUAGES.find((l) => l.value === i18n.language)?.label}
      </span>
    </button>
  );
  if (menu) return <menu.Menu initialOpen={menu.open} refocus={menu.refocus} button={button} />;

  const arm = (open: boolean) => {
    if (open) wantOpen.current = true;
    loadMenu().then(
      (Menu) =>
        // The menu's button replaces this one: it keeps the focus if this one had it.
        setMenu({ Menu, open: wantOpen.current, refocus: document.activeElement === plainRef.current }),
      () => {
        if (wantOpen.current) message.error(t('error.network'));
        wantOpen.current = false;
      },
    );
  };
  return button({
    ref: plainRef,
    onClick: () => arm(true),
    onPointerEnter: () => arm(false),
    onFocus: () => arm(false),
  });
}
