import { CheckOutlined } from '@ant-design/icons';
import { PRESET_COLORS } from '@crdp/core';
import { Alert, App, Button, Divider, Drawer, List, Radio, Switch, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type DisplaySettings, settingOptions } from './settings';
import { setSetting, useSettings } from './useSettings';

/**
 * The development-only settings drawer (spec 000 sections 1 and 4). Written on antd's Drawer
 * rather than ProLayout's SettingDrawer because the spec's rules (multi-tab, auto-hide header,
 * Fluid only in top menu, its eight colours and copy messages) differ from that component's.
 */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const s = useSettings();
  const options = settingOptions(s);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(s, null, 2));
      message.success(t('settings.copyDone'));
    } catch {
      message.error(t('settings.copyFailed'));
    }
  };

  const toggle = (key: keyof DisplaySettings, label: string, disabled = false, hint?: string): ReactNode => (
    <List.Item
      key={key}
      actions={[
        <Switch
          key="switch"
          size="small"
          checked={s[key] as boolean}
          disabled={disabled}
          onChange={(v) => setSetting(key, v as never)}
        />,
      ]}
    >
      <Tooltip title={disabled ? hint : undefined}>
        <span style={{ opacity: disabled ? 0.5 : 1 }}>{label}</span>
      </Tooltip>
    </List.Item>
  );

  return (
    <Drawer
      title={t('settings.title')}
      open={open}
      onClose={onClose}
      width={300}
      data-testid="settings-drawer"
    >
      <Typography.Text type="secondary">{t('settings.devOnly')}</Typography.Text>
      <Divider orientation="left">{t('settings.navTheme')}</Divider>
      <Radio.Group value={s.navTheme} onChange={(e) => setSetting('navTheme', e.target.value)}>
        <Radio.Button value="dark">{t('settings.dark')}</Radio.Button>
        <Radio.Button value="light">{t('settings.light')}</Radio.Button>
      </Radio.Group>
      <Divider orientation="left">{t('settings.color')}</Divider>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        {PRESET_COLORS.map((c) => (
          <Tooltip key={c} title={t(`settings.colors.${c}`)}>
            <button
              type="button"
              aria-label={t(`settings.colors.${c}`)}
              onClick={() => setSetting('primaryColor', c)}
              style={{
                width: 22,
                height: 22,
                borderRadius: 3,
                border: 0,
                background: c,
                cursor: 'pointer',
                color: '#fff',
              }}
            >
              {s.primaryColor === c && <CheckOutlined />}
            </button>
          </Tooltip>
        ))}
      </div>
      <Divider orientation="left">{t('settings.layout')}</Divider>
      <Radio.Group value={s.layout} onChange={(e) => setSetting('layout', e.target.value)}>
        <Radio.Button value="sidemenu">{t('settings.sidemenu')}</Radio.Button>
        <Radio.Button value="topmenu">{t('settings.topmenu')}</Radio.Button>
      </Radio.Group>
      <List split={false} style={{ marginTop: 12 }}>
        <List.Item
          actions={[
            <Radio.Group
              key="width"
              size="small"
              value={s.contentWidth}
              onChange={(e) => setSetting('contentWidth', e.target.value)}
            >
              <Radio.Button value="Fixed">{t('settings.fixed')}</Radio.Button>
              <Tooltip title={options.fluidWidth ? undefined : t('settings.fluidHint')}>
                <Radio.Button value="Fluid" disabled={!options.fluidWidth}>
                  {t('settings.fluid')}
                </Radio.Button>
              </Tooltip>
            </Radio.Group>,
          ]}
        >
          {t('settings.contentWidth')}
        </List.Item>
        {toggle('fixedHeader', t('settings.fixedHeader'))}
        {toggle(
          'autoHideHeader',
          t('settings.autoHideHeader'),
          !options.autoHideHeader,
          t('settings.autoHideHint'),
        )}
        {toggle(
          'fixSiderbar',
          t('settings.fixSiderbar'),
          !options.fixSiderbar,
          t('settings.fixSiderbarHint'),
        )}
      </List>
      <Divider orientation="left">{t('settings.title')}</Divider>
      <List split={false}>
        {toggle('colorWeak', t('settings.colorWeak'))}
        {toggle('multiTab', t('settings.multiTab'))}
      </List>
      <Divider />
      <Button block onClick={() => void copy()}>
        {t('settings.copy')}
      </Button>
      <Alert type="warning" showIcon style={{ marginTop: 16 }} message={t('settings.copyHint')} />
    </Drawer>
  );
}
