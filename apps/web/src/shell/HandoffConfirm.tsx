import type { HandoffIdentity } from '@crdp/core';
import { App as AntApp, Button, Modal, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exchangeHandoff, logout } from '../api/auth';
import { adoptHandoff, type CurrentHolder } from '../app/boot';

/**
 * A sign-in link for another user or app arrived while someone is signed in (issue 15): ask,
 * naming both, before anything changes. Staying is the default (primary, focused; Esc and the
 * close button stay too) and uses nothing; switching uses the code, ends the current session and
 * reopens the workbench as the link's user.
 */
export function HandoffConfirm({
  code,
  current,
  next,
}: {
  code: string;
  current: CurrentHolder;
  next: HandoffIdentity;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [open, setOpen] = useState(true);
  const [busy, setBusy] = useState(false);
  const stayRef = useRef<HTMLButtonElement>(null);
  const person = (w: HandoffIdentity) => t('handoff.person', { nick: w.NickName, user: w.UserName });
  const appName = (w: HandoffIdentity) => w.AppName || w.AppShortName;
  const currentName = current.kind === 'user' ? current.who.NickName : null;

  const stay = () => {
    setOpen(false);
    if (currentName) message.info(t('handoff.stayed', { name: currentName }));
  };
  const switchTo = async () => {
    setBusy(true);
    try {
      const s = await exchangeHandoff(code);
      // The session being left ends on the server too (a free-access session has no sign-out).
      if (current.kind === 'user') await logout().catch(() => undefined);
      adoptHandoff(s);
      window.location.replace('/dashboard/workplace');
    } catch (e) {
      setBusy(false);
      setOpen(false);
      message.error(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Modal
      open={open}
      title={t('handoff.title')}
      closable={!busy}
      maskClosable={false}
      keyboard={!busy}
      onCancel={stay}
      afterOpenChange={(o) => {
        if (o) stayRef.current?.focus();
      }}
      footer={[
        <Button key="switch" data-testid="handoff-switch" loading={busy} onClick={switchTo}>
          {t('handoff.switch', { name: next.NickName })}
        </Button>,
        <Button
          key="stay"
          ref={stayRef}
          type="primary"
          autoFocus
          disabled={busy}
          data-testid="handoff-stay"
          onClick={stay}
        >
          {currentName ? t('handoff.stay', { name: currentName }) : t('handoff.stayFree')}
        </Button>,
      ]}
    >
      <Typography.Paragraph data-testid="handoff-current">
        {current.kind === 'user'
          ? t('handoff.current', { person: person(current.who), app: appName(current.who) })
          : t('handoff.currentFree', {
              scope: t(current.scope === 'crf' ? 'handoff.scopeCrf' : 'handoff.scopeLg'),
            })}
      </Typography.Paragraph>
      <Typography.Paragraph data-testid="handoff-next">
        {t('handoff.next', { person: person(next), app: appName(next) })}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('handoff.consequence')}</Typography.Paragraph>
    </Modal>
  );
}
