import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type LibraryDetail, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';

function Fields({ lib }: { lib: LibraryDetail }) {
  const { t } = useTranslation(LIBRARY_NS);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string[]>(lib.searchFields);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await libraryApi.update(lib.id, { searchFields: chosen });
      await queryClient.invalidateQueries({ queryKey: ['diseaseLibrary', lib.id] });
      message.success(t('retrieval.saved'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary">{t('retrieval.hint')}</Typography.Paragraph>
      <Space>
        <Button size="small" onClick={() => setChosen(lib.items.map((i) => i.key))}>
          {t('retrieval.all')}
        </Button>
        <Button size="small" onClick={() => setChosen([])}>
          {t('retrieval.none')}
        </Button>
        <Typography.Text type="secondary">
          {t('retrieval.count', { count: chosen.length, total: lib.items.length })}
        </Typography.Text>
      </Space>
      <Checkbox.Group
        data-testid="search-fields"
        value={chosen}
        onChange={(v) => setChosen(v as string[])}
        style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 8 }}
        options={lib.items.map((i) => ({ value: i.key, label: `${i.title} (${i.key})` }))}
      />
      <Button type="primary" loading={saving} onClick={save}>
        {t('retrieval.save')}
      </Button>
    </Space>
  );
}

/** RetrievalConfig/Index: which indicators of a library may be searched on. */
export default function RetrievalConfig() {
  const { t } = useTranslation(LIBRARY_NS);
  return <LibraryPage title={t('retrieval.title')}>{(lib) => <Fields key={lib.id} lib={lib} />}</LibraryPage>;
}
