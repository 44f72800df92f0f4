import { PlayCircleOutlined } from '@ant-design/icons';
import { ModalForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { OMOP_NAME_MAX, OMOP_NOTE_MAX } from '@crdp/core';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Input,
  Progress,
  Row,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { Authorized, useHasAction } from '../../components/Authorized';
import { JobStatusTag, jobTime as time } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { RefreshingDeleteLink } from '../../components/RefreshingDeleteLink';
import { useFirstExpanded } from '../../components/table/useFirstExpanded';
import { downloadWithSession } from '../crf/download';
import { MAPPING_KINDS, type MappingInput, type MappingKind, omopApi, type Task } from './api';
import { OMOP_NS } from './i18n';
import { MappingForm } from './MappingForm';

const PERM = 'OmopActiveMappingTask';
const size = (b: number) =>
  b < 1024
    ? `${b} B`
    : b < 1024 * 1024
      ? `${(b / 1024).toFixed(1)} KB`
      : `${(b / 1024 / 1024).toFixed(1)} MB`;

function TaskDetail({ task, onMap }: { task: Task; onMap: (prefill: Partial<MappingInput>) => void }) {
  const { t } = useTranslation(OMOP_NS);
  const word = useLabel();
  const can = useHasAction();
  const [filter, setFilter] = useState('');
  const r = task.result;
  if (task.status === 'failed')
    return <Alert type="error" showIcon message={t('tasks.failed', { error: task.error ?? '' })} />;
  // A task cancelled on the job screen before it ran has nothing to show.
  if (task.status === 'cancelled')
    return <Alert type="warning" showIcon message={word('jobStatus', 'cancelled')} />;
  if (!r) return <Progress percent={task.progress} size="small" status="active" />;
  const kinds = MAPPING_KINDS.filter((k) => r.unmapped[k]);
  const canMap = can('OmopMappingManage', 'add');
  return (
    <Row gutter={16} data-testid={`task-detail-${task.id}`}>
      <Col xs={24} lg={9}>
        <Card size="small" title={t('tasks.counts')}>
          <Descriptions size="small" column={1} bordered>
            {r.tables.map((tb) => (
              <Descriptions.Item key={tb} label={<Typography.Text code>{tb}</Typography.Text>}>
                <span data-testid={`count-${tb}`}>{r.counts[tb] ?? 0}</span>
              </Descriptions.Item>
            ))}
            <Descriptions.Item label={t('tasks.fileSize')}>{size(r.bytes)}</Descriptions.Item>
          </Descriptions>
          {r.personsWithoutBirthDate > 0 && (
            <Alert
              style={{ marginTop: 8 }}
              type="warning"
              showIcon
              message={t('tasks.noBirth', { count: r.personsWithoutBirthDate })}
            />
          )}
        </Card>
      </Col>
      <Col xs={24} lg={15}>
        <Card size="small" title={t('tasks.unmapped')}>
          <Typography.Paragraph type="secondary">{t('tasks.unmappedHint')}</Typography.Paragraph>
          <Input.Search
            allowClear
            placeholder={t('tasks.filter')}
            onSearch={(v) => setFilter(v.trim().toLowerCase())}
            onChange={(e) => !e.target.value && setFilter('')}
            style={{ maxWidth: 320, marginBottom: 8 }}
            data-testid="unmapped-filter"
          />
          <Space direction="vertical" style={{ width: '100%' }}>
            {kinds.map((k) => {
              const u = r.unmapped[k]!;
              const top = filter
                ? u.top.filter(
                    (x) => x.code.toLowerCase().includes(filter) || x.example.toLowerCase().includes(filter),
                  )
                : u.top;
              return (
                <div key={k} data-testid={`unmapped-${k}`}>
                  <Typography.Text strong>
                    {t('tasks.unmappedSummary', { kind: t(`kinds.${k}`), codes: u.codes, rows: u.rows })}
                  </Typography.Text>
                  {u.top.length > 0 ? (
                    <Table
                      size="small"
                      rowKey="code"
                      dataSource={top}
                      pagination={{ pageSize: 5, hideOnSinglePage: true, size: 'small' }}
                      columns={[
                        {
                          title: t('tasks.code'),
                          dataIndex: 'code',
                          render: (code: string, row) =>
                            canMap ? (
                              <Button
                                type="link"
                                size="small"
                                style={{ padding: 0 }}
                                onClick={() =>
                                  onMap({ kind: k as MappingKind, sourceCode: code, note: row.example })
                                }
                              >
                                {code}
                              </Button>
                            ) : (
                              code
                            ),
                        },
                        { title: t('tasks.example'), dataIndex: 'example' },
                        { title: t('tasks.countCol'), dataIndex: 'count', width: 90 },
                      ]}
                    />
                  ) : (
                    <Tag color="success" style={{ marginLeft: 8 }}>
                      {t('tasks.allMapped')}
                    </Tag>
                  )}
                </div>
              );
            })}
          </Space>
        </Card>
      </Col>
    </Row>
  );
}

/** A task's name (optional when starting one: the server names it) and note. */
function TaskNameFields({ required, namePlaceholder }: { required?: boolean; namePlaceholder?: string }) {
  const { t } = useTranslation(OMOP_NS);
  return (
    <>
      <ProFormText
        name="name"
        label={t('tasks.name')}
        placeholder={namePlaceholder}
        rules={[required ? { required: true, whitespace: true, max: OMOP_NAME_MAX } : { max: OMOP_NAME_MAX }]}
      />
      <ProFormTextArea
        name="note"
        label={t('tasks.note')}
        fieldProps={{ rows: 2, maxLength: OMOP_NOTE_MAX }}
      />
    </>
  );
}

/** active-mapping-task: start an OMOP CDM export, follow it, read its counts and unmapped codes, download it. */
export default function Tasks() {
  const { t } = useTranslation(OMOP_NS);
  const _word = useLabel();
  const { message } = App.useApp();
  const can = useHasAction();
  const [page, setPage] = useState({ page: 1, size: 10 });
  const [mapping, setMapping] = useState<Partial<MappingInput> | null>(null);
  const tasks = useJobPoll({
    queryKey: ['omop', 'tasks', page],
    queryFn: () => omopApi.tasks(page),
    underWay: (list) => list.items.some((x) => isUnderWay(x.status)),
  });
  const items = tasks.data?.items ?? [];
  const rows = useFirstExpanded(items);

  return (
    <Card
      title={t('tasks.title')}
      extra={
        <Authorized apiId={`${PERM}.add`}>
          <ModalForm<{ name?: string; note?: string }>
            title={t('tasks.startTitle')}
            width={480}
            modalProps={{ destroyOnHidden: true }}
            trigger={
              <Button type="primary" icon={<PlayCircleOutlined />} data-testid="omop-start">
                {t('tasks.start')}
              </Button>
            }
            onFinish={async (v) => {
              try {
                const task = await omopApi.startTask({
                  name: v.name || undefined,
                  note: v.note || undefined,
                });
                message.success(t('tasks.started'));
                rows.open(task.id);
                setPage((p) => ({ ...p, page: 1 }));
                await tasks.refetch();
                return true;
              } catch {
                return false;
              }
            }}
          >
            <TaskNameFields namePlaceholder={t('tasks.namePlaceholder')} />
          </ModalForm>
        </Authorized>
      }
    >
      <Table<Task>
        rowKey="id"
        loading={tasks.isLoading}
        dataSource={items}
        locale={{ emptyText: <Empty description={t('tasks.empty')} /> }}
        pagination={{
          current: page.page,
          pageSize: page.size,
          total: tasks.data?.total ?? 0,
          onChange: (p, s) => setPage({ page: p, size: s }),
        }}
        expandable={{
          expandedRowKeys: rows.expandedRowKeys,
          onExpandedRowsChange: rows.onExpandedRowsChange,
          expandedRowRender: (task) => <TaskDetail task={task} onMap={setMapping} />,
        }}
        columns={[
          { title: t('tasks.name'), dataIndex: 'name' },
          {
            title: t('tasks.status'),
            dataIndex: 'status',
            width: 200,
            render: (_, r) => (
              <Space>
                <JobStatusTag status={r.status} testId={`task-status-${r.id}`} />
                {(r.status === 'running' || r.status === 'queued') && (
                  <Progress percent={r.progress} size="small" style={{ width: 90 }} />
                )}
              </Space>
            ),
          },
          {
            title: t('tasks.totalRows'),
            key: 'rows',
            width: 110,
            render: (_, r) =>
              r.result
                ? t('tasks.rows', { count: Object.values(r.result.counts).reduce((s, n) => s + n, 0) })
                : '-',
          },
          { title: t('tasks.creator'), dataIndex: 'createdByName', width: 110 },
          { title: t('tasks.created'), dataIndex: 'createdAt', width: 170, render: (v: string) => time(v) },
          {
            title: t('tasks.finished'),
            dataIndex: 'finishedAt',
            width: 170,
            render: (v: string | null) => time(v),
          },
          {
            title: '',
            key: 'op',
            width: 190,
            render: (_, r) => (
              <Space size={0}>
                {r.status === 'succeeded' && r.result && can(PERM, 'get') && (
                  <Button
                    size="small"
                    type="link"
                    data-testid={`download-${r.id}`}
                    onClick={() => downloadWithSession(omopApi.downloadUrl(r.id), r.result!.fileName)}
                  >
                    {t('tasks.download')}
                  </Button>
                )}
                {can(PERM, 'edit') && (
                  <ModalForm<{ name: string; note?: string }>
                    title={t('tasks.renameTitle')}
                    width={480}
                    modalProps={{ destroyOnHidden: true }}
                    initialValues={{ name: r.name, note: r.note }}
                    trigger={
                      <Button size="small" type="link">
                        {t('tasks.rename')}
                      </Button>
                    }
                    onFinish={async (v) => {
                      try {
                        await omopApi.updateTask(r.id, { name: v.name, note: v.note ?? '' });
                        await tasks.refetch();
                        return true;
                      } catch {
                        return false;
                      }
                    }}
                  >
                    <TaskNameFields required />
                  </ModalForm>
                )}
                {can(PERM, 'delete') && r.status !== 'queued' && r.status !== 'running' && (
                  <RefreshingDeleteLink
                    title={t('tasks.confirmDelete', { name: r.name })}
                    text={t('tasks.delete')}
                    onDelete={() => omopApi.removeTask(r.id)}
                    onDone={tasks.refetch}
                  />
                )}
              </Space>
            ),
          },
        ]}
      />
      <MappingForm
        key={mapping ? `${mapping.kind}-${mapping.sourceCode}` : 'none'}
        open={mapping !== null}
        onOpenChange={(o) => !o && setMapping(null)}
        prefill={mapping ?? undefined}
        onDone={() => setMapping(null)}
      />
    </Card>
  );
}
