import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../api/client';
import { type LibraryDetail, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';

interface Trial {
  ok: boolean;
  text: string;
}

function RuleEditor({ lib }: { lib: LibraryDetail }) {
  const { t } = useTranslation(LIBRARY_NS);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [rules, setRules] = useState<Record<string, string>>(lib.sourceRules);
  const [trials, setTrials] = useState<Record<string, Trial>>({});
  const [saving, setSaving] = useState(false);
  const dirty = JSON.stringify(rules) !== JSON.stringify(lib.sourceRules);

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
        [key]: {
          ok: true,
          text: t('crfs.trial', { count: r.values.length, total: lib.patients, sample: sample || '-' }),
        },
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
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={lib.items}
        columns={[
          { title: t('crfs.item'), dataIndex: 'title', width: 200 },
          { title: t('crfs.key'), dataIndex: 'key', width: 120, render: (v: string) => <Tag>{v}</Tag> },
          {
            title: t('crfs.rule'),
            key: 'rule',
            render: (_, it) => (
              <Space direction="vertical" style={{ width: '100%' }} size={2}>
                <Space.Compact style={{ width: '100%' }}>
                  <Input
                    size="small"
                    style={{ fontFamily: 'monospace' }}
                    placeholder={t('crfs.manualOnly')}
                    value={rules[it.key] ?? ''}
                    onChange={(e) => setRules((r) => ({ ...r, [it.key]: e.target.value }))}
                  />
                  <Button size="small" disabled={!rules[it.key]?.trim()} onClick={() => tryRule(it.key)}>
                    {t('crfs.try')}
                  </Button>
                </Space.Compact>
                {trials[it.key] && (
                  <Typography.Text
                    type={trials[it.key]!.ok ? 'secondary' : 'danger'}
                    style={{ fontSize: 12 }}
                  >
                    {trials[it.key]!.text}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Space>
        <Button type="primary" disabled={!dirty} loading={saving} onClick={save}>
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
