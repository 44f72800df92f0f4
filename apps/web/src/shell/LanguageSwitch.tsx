import { TranslationOutlined } from '@ant-design/icons';
import type { Locale } from '@crdp/core';
import { useQueryClient } from '@tanstack/react-query';
import { Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGES } from '../app/i18n';

/**
 * zh-CN / en-US switch; server messages follow through Accept-Language, so cached data reloads.
 * `compact`: in the header, a phone shows the icon only (the label is its accessible name).
 */
export function LanguageSwitch({ style, compact }: { style?: React.CSSProperties; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  return (
    // Opened by a click (a phone has no hover, and a hover menu closed when the pointer crossed
    // the avatar on its way to a language).
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [i18n.language],
        items: LANGUAGES.map((l) => ({ key: l.value, label: l.label })),
        onClick: ({ key }) => {
          void changeLanguage(key as Locale).then(() => queryClient.invalidateQueries());
        },
      }}
    >
      <button
        type="button"
        className="crdp-plain-button"
        aria-label={t('common.language')}
        data-testid="language-switch"
        style={style}
      >
        <TranslationOutlined />{' '}
        <span className={compact ? 'crdp-narrow-hide' : undefined}>
          {LANGUAGES.find((l) => l.value === i18n.language)?.label}
        </span>
      </button>
    </Dropdown>
  );
}
