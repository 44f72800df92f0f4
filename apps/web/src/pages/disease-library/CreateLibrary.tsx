import { ProForm } from '@ant-design/pro-components';
import { App, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import {
  LibraryFormFields,
  type LibraryFormValues,
  libraryFormDefaults,
  toLibraryInput,
} from './LibraryForm';

/** create-library as a page of its own (the library list opens the same fields in a dialog). */
export default function CreateLibrary() {
  const { t } = useTranslation(LIBRARY_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  return (
    <Card title={t('list.create')}>
      <ProForm<LibraryFormValues>
        initialValues={libraryFormDefaults()}
        submitter={{ searchConfig: { submitText: t('create.submit') } }}
        onFinish={async (v) => {
          try {
            await libraryApi.create(toLibraryInput(v));
            message.success(t('create.created'));
            navigate('/zhuanbing-library/library-list');
            return true;
          } catch {
            return false;
          }
        }}
      >
        <LibraryFormFields />
      </ProForm>
    </Card>
  );
}
