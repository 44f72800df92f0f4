import { type ActionType, ProTable } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Descriptions, Drawer, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { JobStatusBadge, jobTime as time } from '../../components/jobs/JobStatusTag';
import { HeaderTitle } from '../../components/table/HeaderTitle';
import { proPage } from '../../components/table/paging';
import { type Schedule, schedulingApi, timeIn, useCan } from './api';
import { TS_NS } from './i18n';
import { ScheduleForm } from './ScheduleForm';

/** A schedule with its recent runs; each run links to its job. */
function ScheduleDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t, i18n } = useTranslation(TS_NS);
  const navigate = useNavigate();
  const s = useQuery({
    queryKey: ['taskScheduling', 'schedule', id],
    queryFn: () => schedulingApi.schedule(id!),
    enabled: id !== null,
  });
  const d = s.data;
  return (
    <Drawer open={id !== null} onClose={onClose} width={640} title={d?.name ?? ''} loading={s.isLoading}>
      {d && (
        <Space direction="vertical" style={{ width: '100%' }} size="large">
          <Descriptions column={1} size="small" bordered labelStyle={{ width: 130 }}>
            <Descriptions.Item label={t('schedules.kind')}>{d.kindLabel}</Descriptions.Item>
            <Descriptions.Item label={t('schedules.target')}>{d.target ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('schedules.cron')}>
              <Typography.Text code>{d.cron}</Typography.Text> ({d.timezone})
            </Descriptions.Item>
            <Descriptions.Item label={t('schedules.enabled')}>
              {d.enabled ? t('schedules.enabledNow') : t('schedules.disabledNow')}
            </Descriptions.Item>
            <Descriptions.Item label={t('schedules.nextRun')}>
              {timeIn(d.nextRunAt, d.timezone, i18n.language)}
            </Descriptions.Item>
            <Descriptions.Item label={t('schedules.createdBy')}>{d.createdBy ?? '-'}</Descriptions.Item>
          </Descriptions>
          <Table
            size="small"
            rowKey="id"
            title={() => <Typography.Text strong>{t('schedules.runs')}</Typography.Text>}
            dataSource={d.runs}
            pagination={false}
            columns={[
              {
                title: t('schedules.trigger'),
                dataIndex: 'trigger',
                render: (v: string) => t(`schedules.triggers.${v}`, v),
              },
              {
                title: t('schedules.dueAt'),
                key: 'due',
                render: (_, r) => (r.dueAt ? timeIn(r.dueAt, d.timezone, i18n.language) : time(r.createdAt)),
              },
              {
                title: t('jobs.status'),
                key: 'status',
                render: (_, r) => (r.status ? <JobStatusBadge status={r.status} progress={0} /> : '-'),
              },
              {
                title: t('jobs.id'),
                key: 'job',
                render: (_, r) =>
                  r.jobId ? (
                    <Button
                      type="link"
                      size="small"
                      onClick={() =>
                        navigate('/task-scheduling/project-management', { state: { job: r.jobId } })
                      }
                    >
                      #{r.jobId}
                    </Button>
                  ) : (
                    '-'
                  ),
              },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

/** 调度任务 (route TaskSchedulingList): the app's schedules, their next and last runs, run now. */
export default function ScheduleList() {
  const { t, i18n } = useTranslation(TS_NS);
  const { message } = App.useApp();
  const can = useCan();
  const navigate = useNavigate();
  const table = useRef<ActionType>(null);
  const [open, setOpen] = useState<number | null>(null);
  const kinds = useQuery({ queryKey: ['taskScheduling', 'kinds'], queryFn: schedulingApi.kinds });
  const reload = () => table.current?.reload();
  const act = async (fn: () => Promise<unknown>, ok?: string) => {
    try {
      await fn();
      if (ok) message.success(ok);
    } catch (e) {
      message.error((e as Error).message);
    }
    reload();
  };

  return (
    <>
      <ProTable<Schedule, { name?: string; kind?: string; enabled?: 'true' | 'false' }>
        rowKey="id"
        actionRef={table}
        headerTitle={
          <HeaderTitle
            title={t('schedules.title')}
            hint={t('schedules.hint', { tz: kinds.data?.timezone ?? '' })}
          />
        }
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        request={async (p) => {
          const r = await schedulingApi.schedules({
            ...proPage(p),
            name: p.name || undefined,
            kind: p.kind || undefined,
            enabled: p.enabled || undefined,
          });
          return { data: r.list, total: r.total, success: true };
        }}
        pagination={{ defaultPageSize: 20 }}
        scroll={{ x: 1020 }}
        toolBarRender={() => [
          can('TaskProjectManagement.query') && (
            <Button key="jobs" onClick={() => navigate('/task-scheduling/project-management')}>
              {t('schedules.toJobs')}
            </Button>
          ),
          can('TaskSchedulingList.add') && (
            <ScheduleForm
              key="add"
              trigger={<Button type="primary">{t('schedules.add')}</Button>}
              onSaved={reload}
            />
          ),
        ]}
        columns={[
          {
            title: t('schedules.name'),
            dataIndex: 'name',
            width: 150,
            render: (_, s) => (
              <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setOpen(s.id)}>
                {s.name}
              </Button>
            ),
          },
          {
            title: t('schedules.kind'),
            dataIndex: 'kind',
            width: 160,
            valueType: 'select',
            valueEnum: Object.fromEntries((kinds.data?.kinds ?? []).map((k) => [k.kind, { text: k.label }])),
            render: (_, s) => (
              <Space direction="vertical" size={0}>
                <span>{s.kindLabel}</span>
                {s.target && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {s.target}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: t('schedules.cron'),
            dataIndex: 'cron',
            width: 110,
            search: false,
            render: (_, s) => <Typography.Text code>{s.cron}</Typography.Text>,
          },
          {
            title: t('schedules.enabled'),
            dataIndex: 'enabled',
            width: 90,
            valueType: 'select',
            valueEnum: {
              true: { text: t('schedules.enabledNow') },
              false: { text: t('schedules.disabledNow') },
            },
            render: (_, s) => (
              <Switch
                size="small"
                checked={s.enabled}
                aria-label={t(s.enabled ? 'schedules.disable' : 'schedules.enable')}
                disabled={!can(`TaskSchedulingList.${s.enabled ? 'disable' : 'enable'}`)}
                onChange={(on) =>
                  act(async () => {
                    const r = (await (on ? schedulingApi.enable(s.id) : schedulingApi.disable(s.id))) as {
                      nextRunAt: string | null;
                    };
                    message.success(
                      on
                        ? t('schedules.enabledMsg', { at: timeIn(r.nextRunAt, s.timezone, i18n.language) })
                        : t('schedules.disabledMsg'),
                    );
                  })
                }
              />
            ),
          },
          {
            title: t('schedules.nextRun'),
            key: 'next',
            width: 165,
            search: false,
            render: (_, s) => (s.enabled ? timeIn(s.nextRunAt, s.timezone, i18n.language) : '-'),
          },
          {
            title: t('schedules.lastRun'),
            key: 'last',
            width: 165,
            search: false,
            render: (_, s) => (
              <Space direction="vertical" size={0}>
                <span>{timeIn(s.lastRunAt, s.timezone, i18n.language, false)}</span>
                {s.lastJob && (
                  <Space size={4}>
                    <Button
                      type="link"
                      size="small"
                      style={{ padding: 0 }}
                      onClick={() =>
                        navigate('/task-scheduling/project-management', { state: { job: s.lastJob!.id } })
                      }
                    >
                      #{s.lastJob.id}
                    </Button>
                    <JobStatusBadge status={s.lastJob.status} progress={0} />
                  </Space>
                )}
                {s.lastError && (
                  <Tag color="warning" style={{ whiteSpace: 'normal' }}>
                    {t('schedules.lastError')}: {s.lastError}
                  </Tag>
                )}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            valueType: 'option',
            fixed: 'right',
            width: 180,
            render: (_, s) => (
              <Space size={0}>
                {can('TaskSchedulingList.edit') && (
                  <Popconfirm
                    title={t('schedules.runNowConfirm')}
                    onConfirm={() =>
                      act(async () => {
                        const r = await schedulingApi.runNow(s.id);
                        message.success(t('schedules.started', { id: r.jobId }));
                      })
                    }
                  >
                    <Button type="link" size="small">
                      {t('schedules.runNow')}
                    </Button>
                  </Popconfirm>
                )}
                {can('TaskSchedulingList.edit') && (
                  <ScheduleForm
                    schedule={s}
                    trigger={
                      <Button type="link" size="small">
                        {t('schedules.editShort')}
                      </Button>
                    }
                    onSaved={reload}
                  />
                )}
                {can('TaskSchedulingList.delete') && (
                  <Popconfirm
                    title={t('schedules.deleteConfirm', { name: s.name })}
                    onConfirm={() => act(() => schedulingApi.remove(s.id), t('common.deleted'))}
                  >
                    <Button type="link" size="small" danger>
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <ScheduleDrawer id={open} onClose={() => setOpen(null)} />
    </>
  );
}
