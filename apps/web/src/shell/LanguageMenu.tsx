import type { Locale } from '@crdp/core';
import { useQueryClient } from '@tanstack/react-query';
import { Dropdown } from 'antd';
import { type ReactElement, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGES } from '../app/i18n';

/**
 * The language menu around the switch's button, loaded by LanguageSwitch when first wanted.
 * `initialOpen`: the click that loaded it opens it; `refocus`: the plain button it replaces had
 * the keyboard focus.
 */
export default function LanguageMenu({
  initialOpen,
  refocus,
  button,
}: {
  initialOpen: boolean;
  refocus: boolean;
  button: (props: { ref: React.Ref<HTMLButtonElement> }) => ReactElement;
}) {
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(initialOpen);
  const ref = useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the menu replaces the plain button
  useLayoutEffect(() => {
    if (refocus) ref.current?.focus();
  }, []);
  return (
    // Opened by a click (a phone has no hover, and a hover menu closed when the pointer crossed
    // the avatar on its way to a language).
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectedKeys: [i18n.language],
        items: LANGUAGES.map((l) => ({ key: l.value, label: l.label })),
        onClick: ({ key }) => {
          setOpen(false);
          void changeLanguage(key as Locale).then(() => queryClient.invalidateQueries());
        },
      }}
    >
      {button({ ref })}
    </Dropdown>
  );
}
