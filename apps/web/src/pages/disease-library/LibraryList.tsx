import { type ActionType, ProTable } from '@ant-design/pro-components';
import { App, Button, Dropdown, Space } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CutText } from '../../components/CutText';
import { GuardedModalForm } from '../../components/form/GuardedModalForm';
import { proPage } from '../../components/table/paging';
import { type Library, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import {
  LibraryFormFields,
  type LibraryFormValues,
  libraryFormDefaults,
  toLibraryInput,
} from './LibraryForm';
import { useLibraryJob } from './useLibraryJob';

/** Pages over one library, reached from its row. */
const LIBRARY_PAGES = [
  ['data', 'zhuanbing-data'],
  ['search', 'zb-data-search'],
  ['missing', 'indicator-missing-process'],
  ['stats', 'statistics-analysis'],
  ['dashboard', 'zhuanbing-dashboard'],
  ['export', 'export'],
  ['crfs', 'library-list-Crf'],
  ['retrieval', 'RetrievalConfig/Index'],
  ['clean', 'clean-annotation'],
] as const;

/** A push or fill started from the list, followed until it ends. */
interface Run {
  jobId: number;
  kind: 'push' | 'fill';
  hide: () => void;
}

/** Follows one run and says how it went; several runs may be followed at once. */
function RunWatch({ run, onOver }: { run: Run; onOver: (run: Run) => void }) {
  useLibraryJob(run.jobId, run.kind, () => onOver(run));
  return null;
}

/** library-list: every library of the app, with create, push, fill and the way to its patients. */
export default function LibraryList() {
  const { t } = useTranslation(LIBRARY_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const table = useRef<ActionType>(null);
  const [runs, setRuns] = useState<Run[]>([]);

  const run = async (kind: 'push' | 'fill', lib: Library) => {
    const { jobId } = await (kind === 'push' ? libraryApi.push(lib.id) : libraryApi.fill(lib.id));
    const hide = message.loading(`${t(`list.${kind}`)}…`, 0);
    setRuns((rs) => [...rs, { jobId, kind, hide }]);
  };
  const over = (r: Run) => {
    r.hide();
    table.current?.reload();
    setRuns((rs) => rs.filter((x) => x.jobId !== r.jobId));
  };

  return (
    <>
      {runs.map((r) => (
        <RunWatch key={r.jobId} run={r} onOver={over} />
      ))}
      <ProTable<Library>
        rowKey="id"
        actionRef={table}
        headerTitle={t('list.title')}
        search={false}
        request={async (p) => {
          const r = await libraryApi.list(proPage(p));
          return { data: r.items, total: r.total, success: true };
        }}
        toolBarRender={() => [
          <GuardedModalForm<LibraryFormValues>
            key="create"
            title={t('list.create')}
            width={960}
            trigger={<Button type="primary">{t('list.create')}</Button>}
            initialValues={libraryFormDefaults()}
            modalProps={{ destroyOnHidden: true }}
            onFinish={async (v) => {
              try {
                await libraryApi.create(toLibraryInput(v));
                table.current?.reload();
                return true;
              } catch {
                return false;
              }
            }}
          >
            <LibraryFormFields />
          </GuardedModalForm>,
        ]}
        columns={[
          { title: t('list.name'), dataIndex: 'name', render: (_, r) => <CutText text={r.name} /> },
          {
            title: t('list.disease'),
            dataIndex: 'diseaseName',
            render: (_, r) => <CutText text={r.diseaseName} limit={24} />,
          },
          {
            title: t('list.crf'),
            dataIndex: 'crfFormName',
            render: (_, r) => <CutText text={r.crfFormName} limit={24} />,
          },
          { title: t('list.patients'), dataIndex: 'patients' },
          { title: t('list.lastPush'), dataIndex: 'lastPushAt', valueType: 'dateTime' },
          { title: t('list.lastFill'), dataIndex: 'lastFillAt', valueType: 'dateTime' },
          {
            title: '',
            valueType: 'option',
            render: (_, r) => (
              <Space>
                <Button size="small" onClick={() => run('push', r)}>
                  {t('list.push')}
                </Button>
                <Button size="small" onClick={() => run('fill', r)}>
                  {t('list.fill')}
                </Button>
                <Button
                  size="small"
                  type="link"
                  onClick={() => navigate(`/zhuanbing-library/patients-list?libraryId=${r.id}`)}
                >
                  {t('list.open')}
                </Button>
                <Button
                  size="small"
                  type="link"
                  onClick={() => navigate(`/zhuanbing-library/fill_log?libraryId=${r.id}`)}
                >
                  {t('list.log')}
                </Button>
                <Dropdown
                  menu={{
                    items: LIBRARY_PAGES.map(([k, path]) => ({ key: path, label: t(`${k}.title`) })),
                    onClick: ({ key }) => navigate(`/zhuanbing-library/${key}?libraryId=${r.id}`),
                  }}
                >
                  <Button size="small" type="link" data-testid={`more-${r.id}`}>
                    {t('list.more')}
                  </Button>
                </Dropdown>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
