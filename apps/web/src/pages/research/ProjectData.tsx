import type { TaskStatus } from '@crdp/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Popconfirm,
  Progress,
  Space,
  Table,
  Timeline,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { researchApi, type Subject } from './api';
import { RESEARCH_NS } from './i18n';
import { moveConsequence, moveNeedsConfirmation } from './moves';
import { MOVES_NS } from './moves-i18n';
import { StatusTag, statusText } from './StatusTag';
import SubjectList from './SubjectList';
import { MembersEditor, PersonName, type TeamRow } from './Team';
import { useSubjectId } from './useSubjectId';

/** The members panel: the PI, or a user with the edit function, changes members and roles. */
function TeamPanel({ subject }: { subject: Subject }) {
  const { t } = useTranslation(RESEARCH_NS);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const stored = (subject.members ?? []).map((m) => ({ userId: m.userId, role: m.role }));
  const [rows, setRows] = useState<TeamRow[]>(stored);
  const [pi, setPi] = useState<number | null>(subject.piUserId);
  const storedKey = JSON.stringify([subject.piUserId, stored]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the stored team changes
  useEffect(() => {
    setRows(stored);
    setPi(subject.piUserId);
  }, [storedKey]);
  const dirty = JSON.stringify([pi, rows]) !== storedKey;
  const save = useMutation({
    mutationFn: () =>
      researchApi.setMembers(subject.id, {
        ...(pi !== null && pi !== subject.piUserId ? { piUserId: pi } : {}),
        members: rows.filter((r) => r.userId !== pi),
      }),
    onSuccess: () => {
      message.success(t('team.saved'));
      qc.invalidateQueries({ queryKey: ['research', 'subject', subject.id] });
    },
    onError: (e: Error) => message.error(e.message),
  });
  const canEdit = !!subject.canManageMembers;
  return (
    <Card
      title={t('team.title')}
      data-testid="team-panel"
      extra={
        canEdit && (
          <Button
            type="primary"
            data-testid="save-members"
            disabled={!dirty}
            loading={save.isPending}
            onClick={() => save.mutate()}
          >
            {t('team.save')}
          </Button>
        )
      }
    >
      {!canEdit && <Alert type="info" showIcon message={t('team.readOnly')} style={{ marginBottom: 12 }} />}
      <MembersEditor
        value={rows}
        onChange={setRows}
        disabled={!canEdit}
        withPi
        onPi={(userId) => {
          // Handing the PI over: the new PI takes the role, the previous one stays as coordinator.
          setRows(
            rows.map((r) =>
              r.userId === userId
                ? { ...r, role: 'pi' }
                : r.role === 'pi'
                  ? { ...r, role: 'coordinator' }
                  : r,
            ),
          );
          setPi(userId);
        }}
      />
    </Card>
  );
}

/** project-data: one subject — status and its allowed moves, recruitment, the cohort by variables. */
export default function ProjectData() {
  const { t, i18n } = useTranslation(RESEARCH_NS);
  const { t: tm } = useTranslation(MOVES_NS);
  const { message } = App.useApp();
  const id = useSubjectId();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const subject = useQuery({
    queryKey: ['research', 'subject', id],
    queryFn: () => researchApi.get(id!),
    enabled: id !== null,
  });
  const [page, setPage] = useState(1);
  const data = useQuery({
    queryKey: ['research', 'data', id, page],
    queryFn: () => researchApi.data(id!, page, 10),
    enabled: id !== null,
    placeholderData: (prev) => prev,
  });
  const types = useQuery({ queryKey: ['research', 'types'], queryFn: researchApi.types });
  const forms = useQuery({ queryKey: ['research', 'crf-forms'], queryFn: researchApi.crfForms });
  const crfName = forms.data?.find((f) => f.id === subject.data?.crfFormId)?.name;
  const refresh = () => qc.invalidateQueries({ queryKey: ['research'] });
  const move = useMutation({
    mutationFn: (to: TaskStatus) => researchApi.move(id!, to),
    onSuccess: refresh,
    onError: (e: Error) => message.error(e.message),
  });
  const recruit = useMutation({
    mutationFn: () => researchApi.recruit(id!),
    onSuccess: (r) => {
      message.success(t('detail.recruited', { n: r.added }));
      refresh();
    },
    onError: (e: Error) => message.error(e.message),
  });
  if (id === null) return <SubjectList />;
  const s = subject.data;
  if (!s) return <Card loading />;
  const go = (page: string) => navigate(`/scientific-research-subject/${page}?id=${id}`);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card title={s.name} extra={<StatusTag status={s.status} />}>
        <Descriptions column={3} size="small">
          <Descriptions.Item label={t('list.type')}>
            {types.data?.find((x) => x.code === s.typeCode)?.name ?? s.typeCode}
          </Descriptions.Item>
          <Descriptions.Item label={t('list.enrolled')}>{s.enrolled}</Descriptions.Item>
          <Descriptions.Item label={t('report.target')}>{s.targetSize}</Descriptions.Item>
          <Descriptions.Item label={t('list.pi')}>
            {(() => {
              const pi = s.members?.find((m) => m.role === 'pi');
              return pi ? <PersonName userName={pi.userName} nickname={pi.nickname} /> : '—';
            })()}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.window')}>
            {s.startDate || s.endDate ? `${s.startDate ?? '…'} ~ ${s.endDate ?? '…'}` : '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.members')}>{s.members?.length ?? 0}</Descriptions.Item>
          {s.centers.length > 0 && (
            <Descriptions.Item label={t('detail.centers')}>{s.centers.join(', ')}</Descriptions.Item>
          )}
          <Descriptions.Item label={t('detail.crfForm')}>
            {s.crfFormId ? (crfName ?? `#${s.crfFormId}`) : t('detail.none')}
          </Descriptions.Item>
        </Descriptions>
        <Space wrap style={{ marginTop: 12 }}>
          <Typography.Text strong>{t('detail.moves')}:</Typography.Text>
          {s.allowedMoves.length === 0 && (
            <Typography.Text type="secondary">{t('detail.final')}</Typography.Text>
          )}
          {s.allowedMoves.map((to) => {
            const label = t('detail.move', { to: statusText(to, i18n.language) });
            if (!moveNeedsConfirmation(s.status, to))
              return (
                <Button
                  key={to}
                  data-testid={`move-${to}`}
                  loading={move.isPending}
                  onClick={() => move.mutate(to)}
                >
                  {label}
                </Button>
              );
            // Stopping recruitment or closing is asked for first: one stray click must not do it.
            return (
              <Popconfirm
                key={to}
                title={tm('title', { to: statusText(to, i18n.language) })}
                description={tm(moveConsequence(s.status, to))}
                okText={tm('ok')}
                cancelText={tm('cancel')}
                onConfirm={() => move.mutateAsync(to).catch(() => undefined)}
              >
                <Button data-testid={`move-${to}`} loading={move.isPending} danger={to === 'closed'}>
                  {label}
                </Button>
              </Popconfirm>
            );
          })}
          {s.status === 'recruiting' && (
            <Button
              type="primary"
              data-testid="recruit"
              loading={recruit.isPending}
              onClick={() => recruit.mutate()}
            >
              {t('detail.recruit')}
            </Button>
          )}
          <Button onClick={() => go('subject-list/data-reduction')}>{t('detail.dataReduction')}</Button>
          <Button onClick={() => go('analysis-mining/index')}>{t('detail.analysis')}</Button>
          <Button onClick={() => go('subject-list/report')}>{t('detail.report')}</Button>
        </Space>
      </Card>
      <TeamPanel subject={s} />
      <Card title={t('detail.variables')}>
        <Table
          rowKey="key"
          size="small"
          pagination={false}
          dataSource={data.data?.variables ?? []}
          columns={[
            { title: t('detail.variable'), dataIndex: 'label' },
            {
              title: t('detail.completeness'),
              dataIndex: 'completeness',
              render: (v: number) => <Progress percent={Math.round(v * 100)} size="small" />,
            },
            {
              title: t('detail.summary'),
              render: (_, r) => {
                const x = r.summary as {
                  n: number;
                  mean?: number;
                  sd?: number;
                  levels?: Array<{ value: string; count: number }>;
                };
                const gender = s.variables.find((v) => v.key === r.key)?.source === 'gender';
                const level = (v: string) =>
                  !gender
                    ? v
                    : v === '1'
                      ? t('create.genderMale')
                      : v === '2'
                        ? t('create.genderFemale')
                        : t('create.genderUnknown');
                return x.levels
                  ? x.levels.map((l) => `${level(String(l.value))}: ${l.count}`).join(' · ')
                  : `${x.n} / ${x.mean?.toFixed(2) ?? '-'} / ${x.sd?.toFixed(2) ?? '-'}`;
              },
            },
          ]}
        />
      </Card>
      <Card title={t('detail.patients')}>
        <Table
          rowKey="id"
          size="small"
          dataSource={data.data?.patients.items ?? []}
          pagination={{
            current: page,
            pageSize: 10,
            total: data.data?.patients.total ?? 0,
            showSizeChanger: false,
            onChange: setPage,
          }}
          columns={[
            { title: t('detail.mrn'), dataIndex: 'mrn' },
            { title: t('detail.patientName'), dataIndex: 'name' },
            { title: t('detail.birth'), dataIndex: 'birthDate' },
          ]}
        />
      </Card>
      <Card title={t('detail.history')}>
        <Timeline
          items={(s.history ?? []).map((h) => ({
            children: `${h.at.slice(0, 19).replace('T', ' ')} ${h.userName}: ${h.from ? statusText(h.from, i18n.language) : '—'} → ${statusText(h.to, i18n.language)}`,
          }))}
        />
      </Card>
    </Space>
  );
}
