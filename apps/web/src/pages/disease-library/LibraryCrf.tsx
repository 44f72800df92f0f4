import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../api/client';
import { type LibraryDetail, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';
import { rulesComplete, SourceRulesEditor } from './RuleBuilder';
import { RULES_NS } from './rule-builder-i18n';

/** A trial run: what it found (put in words on screen, in the current language) or why it failed. */
type Trial = { ok: true; count: number; total: number; sample: string } | { ok: false; text: string };

function RuleEditor({ lib }: { lib: LibraryDetail }) {
  const { t } = useTranslation(LIBRARY_NS);
  const { t: tr } = useTranslation(RULES_NS);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [rules, setRules] = useState<Record<string, string>>(lib.sourceRules);
  const [trials, setTrials] = useState<Record<string, Trial>>({});
  const [saving, setSaving] = useState(false);
  const dirty = JSON.stringify(rules) !== JSON.stringify(lib.sourceRules);

  const complete = rulesComplete(rules);
  const tryRule = async (key: string) => {
    const rule = rules[key]?.trim();
    if (!rule) return;
    try {
      const r = await libraryApi.compute({ template_str: rule, library_id: lib.id });
      const sample = r.values
        .slice(0, 3)
        .map((v) => String(v.value))
        .join('、');
      setTrials((x) => ({
        ...x,
        [key]: { ok: true, count: r.values.length, total: lib.patients, sample: sample || '-' },
      }));
    } catch (e) {
      const msg = e instanceof RequestError ? e.message : String(e);
      setTrials((x) => ({ ...x, [key]: { ok: false, text: msg } }));
    }
  };
  const save = async () => {
    setSaving(true);
    try {
      const clean = Object.fromEntries(Object.entries(rules).filter(([, r]) => r.trim()));
      await libraryApi.update(lib.id, { sourceRules: clean });
      await queryClient.invalidateQueries({ queryKey: ['diseaseLibrary', lib.id] });
      message.success(t('crfs.saved'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Descriptions
        size="small"
        column={3}
        items={[
          { key: 'form', label: t('list.crf'), children: lib.crfFormName },
          { key: 'items', label: t('crfs.items'), children: lib.items.length },
          { key: 'rules', label: t('crfs.ruled'), children: Object.keys(lib.sourceRules).length },
        ]}
      />
      <Typography.Paragraph type="secondary">{t('crfs.hint')}</Typography.Paragraph>
      <SourceRulesEditor
        items={lib.items}
        value={rules}
        onChange={setRules}
        extra={(key, text) => (
          <Space size={4} wrap>
            {trials[key] && (
              <Typography.Text
                type={trials[key].ok ? 'secondary' : 'danger'}
                style={{ fontSize: 12 }}
                data-testid={`rule-trial-${key}`}
              >
                {trials[key].ok
                  ? t('crfs.trial', {
                      count: trials[key].count,
                      total: trials[key].total,
                      sample: trials[key].sample,
                    })
                  : trials[key].text}
              </Typography.Text>
            )}
            <Button size="small" disabled={!text || !complete} onClick={() => tryRule(key)}>
              {t('crfs.try')}
            </Button>
          </Space>
        )}
      />
      {!complete && (
        <Typography.Text type="danger" role="alert">
          {tr('incomplete')}
        </Typography.Text>
      )}
      <Space>
        <Button type="primary" disabled={!dirty || !complete} loading={saving} onClick={save}>
          {t('crfs.save')}
        </Button>
        <Button disabled={!dirty} onClick={() => setRules(lib.sourceRules)}>
          {t('crfs.undo')}
        </Button>
      </Space>
    </Space>
  );
}

/** library-list-Crf: a library's CRF items and where each one's value comes from (source rules). */
export default function LibraryCrf() {
  const { t } = useTranslation(LIBRARY_NS);
  return <LibraryPage title={t('crfs.title')}>{(lib) => <RuleEditor key={lib.id} lib={lib} />}</LibraryPage>;
}
