import { ProFormSelect, type ProFormSelectProps } from '@ant-design/pro-components';
import { useTranslation } from 'react-i18next';
import { libraryApi } from './api';
import { LIBRARY_NS } from './i18n';

/**
 * The CRF form (`crfFormId`) a library or a common template fills: one that has a published
 * version. A hospital keeps many forms: type part of a name to find one.
 */
export function PublishedFormSelect({ width }: { width?: ProFormSelectProps['width'] }) {
  const { t } = useTranslation(LIBRARY_NS);
  return (
    <ProFormSelect
      name="crfFormId"
      label={t('create.form')}
      width={width}
      rules={[{ required: true }]}
      showSearch
      fieldProps={{ optionFilterProp: 'label' }}
      request={async () =>
        (await libraryApi.forms()).items
          .filter((f) => f.latestVersion > 0)
          .map((f) => ({ label: f.name, value: f.id }))
      }
    />
  );
}
