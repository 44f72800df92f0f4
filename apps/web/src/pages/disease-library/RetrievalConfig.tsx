import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AllNoneButtons } from './AllNoneButtons';
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
        <AllNoneButtons keys={lib.items.map((i) => i.key)} onChoose={setChosen} />
        <Typography.Text type="secondary">
          {t('retrieval.count', { count: chosen.length, total: lib.items.length })}
        </Typography.Text>
      </Space>
      {/* One controlled checkbox per indicator: Checkbox.Group copies its value in an effect, so
          for a moment after a click it showed the box unticked while the count already said 1. */}
      <div
        data-testid="search-fields"
        style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 8 }}
      >
        {lib.items.map((i) => (
          <Checkbox
            key={i.key}
            checked={chosen.includes(i.key)}
            onChange={(e) =>
              setChosen((now) =>
                e.target.checked
                  ? lib.items.map((x) => x.key).filter((k) => k === i.key || now.includes(k))
                  : now.filter((k) => k !== i.key),
              )
            }
          >
            {`${i.title} (${i.key})`}
          </Checkbox>
        ))}
      </div>
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
