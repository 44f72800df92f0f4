import { ProFormTextArea } from '@ant-design/pro-components';
import {
  type AssessmentScale,
  FORMULA_DESCRIPTION_MAX,
  FORMULA_NAME_MAX,
  type ScaleAssessment,
} from '@crdp/core';
import { bandOf } from '@crdp/crf';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { textRule } from '../../app/text-rule';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsCard } from '../../components/DefinitionsCard';
import { DeleteLink } from '../../components/DeleteLink';
import { DefinitionForm } from '../../components/form/DefinitionForm';
import { NameDescriptionFields } from '../../components/form/NameDescriptionFields';
import { BuiltinsModal } from './BuiltinsModal';
import { scaleApi } from './formulas-api';
import { FORMULAS_NS } from './formulas-i18n';
import { PatientSelect } from './PatientSelect';

const MENU = 'DataLakeEvaluationScale';
const span = (min: number, max: number) => (min === max ? `${min}` : `${min}–${max}`);

type FillForm = {
  patientId?: number;
  visitId?: number | null;
  note?: string;
  answers: Record<string, string>;
};

/** Fills one scale for a patient: one option per item, the running total and band shown as chosen. */
function FillModal({
  scale,
  onClose,
  onSaved,
}: {
  scale: AssessmentScale | null;
  onClose: () => void;
  onSaved: (patientId: number) => Promise<unknown>;
}) {
  const { t } = useTranslation(FORMULAS_NS);
  const { message } = App.useApp();
  const [form] = Form.useForm<FillForm>();
  const [saving, setSaving] = useState(false);
  const answers = (Form.useWatch('answers', form) ?? {}) as Record<string, string>;
  const chosen = scale?.definition.items.map((i) => i.options.find((o) => o.code === answers[i.key])) ?? [];
  const total = chosen.reduce((s, o) => s + (o?.points ?? 0), 0);
  const complete = chosen.length > 0 && chosen.every(Boolean);
  const band = scale && complete ? scale.definition.bands[bandOf(scale.definition, total)] : undefined;
  const save = async () => {
    if (!scale) return;
    const v = await form.validateFields();
    setSaving(true);
    try {
      await scaleApi.fill(scale.id, {
        patientId: v.patientId!,
        visitId: v.visitId ?? null,
        note: v.note ?? '',
        answers: v.answers,
      });
      message.success(t('common.saved'));
      await onSaved(v.patientId!);
      onClose();
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={!!scale}
      onCancel={onClose}
      onOk={save}
      confirmLoading={saving}
      width={760}
      destroyOnHidden
      title={scale && t('scales.fillTitle', { name: scale.name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
    >
      <div data-testid="scale-fill">
        <Typography.Paragraph type="secondary">{t('scales.fillHint')}</Typography.Paragraph>
        <Form<FillForm> form={form} layout="vertical" preserve={false} initialValues={{ answers: {} }}>
          <Space wrap align="start">
            <Form.Item
              name="patientId"
              label={t('common.patient')}
              rules={[{ required: true, message: t('common.required') }]}
            >
              <PatientSelect
                onChange={(id) => form.setFieldValue('patientId', id)}
                testId="scale-fill-patient"
              />
            </Form.Item>
            <Form.Item name="visitId" label={t('scales.visitId')}>
              <InputNumber min={1} precision={0} style={{ width: 160 }} />
            </Form.Item>
          </Space>
          {scale?.definition.items.map((item) => (
            <Form.Item
              key={item.key}
              name={['answers', item.key]}
              label={item.title}
              rules={[{ required: true, message: t('scales.answerRequired') }]}
            >
              <Radio.Group>
                <Space direction="vertical">
                  {item.options.map((o) => (
                    <Radio key={o.code} value={o.code}>
                      {o.label}{' '}
                      <Typography.Text type="secondary">
                        ({t('scales.points', { points: o.points })})
                      </Typography.Text>
                    </Radio>
                  ))}
                </Space>
              </Radio.Group>
            </Form.Item>
          ))}
          <Form.Item name="note" label={t('scales.note')} rules={[textRule(currentLocale())]}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Form>
        <Space size="large" data-testid="scale-fill-total">
          <Statistic title={t('scales.total')} value={complete ? total : '—'} />
          <Statistic title={t('scales.band')} value={complete ? (band?.label ?? t('scales.noBand')) : '—'} />
          {band?.advice && <Typography.Text type="secondary">{band.advice}</Typography.Text>}
        </Space>
      </div>
    </Modal>
  );
}

/** The scales filled for one patient, newest first. */
function History({ patientId, setPatientId }: { patientId?: number; setPatientId: (id?: number) => void }) {
  const { t } = useTranslation(FORMULAS_NS);
  const can = useHasAction();
  const q = useQuery({
    queryKey: ['scale-assessments', patientId],
    queryFn: () => scaleApi.assessments({ patientId }),
    enabled: !!patientId,
  });
  return (
    <Card size="small" title={t('scales.history')} data-testid="scale-history">
      <Space direction="vertical" style={{ width: '100%' }}>
        <PatientSelect value={patientId} onChange={setPatientId} testId="scale-history-patient" />
        {!patientId ? (
          <Typography.Text type="secondary">{t('scales.historyHint')}</Typography.Text>
        ) : q.isError ? (
          <Alert type="error" showIcon message={q.error.message} />
        ) : (
          <Table<ScaleAssessment>
            size="small"
            rowKey="id"
            loading={q.isLoading}
            dataSource={q.data?.items ?? []}
            pagination={false}
            locale={{ emptyText: <Empty description={t('scales.noHistory')} /> }}
            columns={[
              { title: t('common.name'), dataIndex: 'scaleName' },
              { title: t('scales.total'), dataIndex: 'total', align: 'right' },
              {
                title: t('scales.band'),
                dataIndex: 'band',
                render: (v: string) => (v ? <Tag color="blue">{v}</Tag> : t('scales.noBand')),
              },
              {
                title: t('scales.assessedAt'),
                dataIndex: 'assessedAt',
                render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
              },
              { title: t('scales.by'), dataIndex: 'createdBy' },
              { title: t('scales.note'), dataIndex: 'note', render: (v: string) => v || '—' },
              {
                title: t('common.actions'),
                key: 'actions',
                render: (_, a) =>
                  can(MENU, 'delete') && (
                    <DeleteLink
                      name={a.scaleName}
                      onDelete={() => scaleApi.removeAssessment(a.id)}
                      onDeleted={() => q.refetch()}
                    />
                  ),
              },
            ]}
          />
        )}
      </Space>
    </Card>
  );
}

type ScaleForm = { name: string; description?: string; definition: string };

/**
 * 评估量表 (`/data-lake/evaluation-scale`): scored instruments (Child-Pugh, GCS, NRS-2002 built
 * in, or the app's own), filled per patient with their total and band, and a patient's history.
 */
export default function Scales() {
  const { t } = useTranslation(FORMULAS_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const [builtins, setBuiltins] = useState(false);
  const [filling, setFilling] = useState<AssessmentScale | null>(null);
  const [editing, setEditing] = useState<AssessmentScale | 'new' | null>(null);
  const [patientId, setPatientId] = useState<number>();
  const list = useQuery({ queryKey: ['scales'], queryFn: scaleApi.list });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <DefinitionsCard<AssessmentScale>
        title={t('scales.title')}
        testId="scales"
        addApiId={`${MENU}.add`}
        actions={
          <Space>
            <Button onClick={() => setBuiltins(true)}>{t('common.builtins')}</Button>
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('scales.add')}
            </Button>
          </Space>
        }
        hint={t('scales.hint')}
        list={list}
        empty={t('scales.empty')}
        columns={[
          { title: t('common.name'), dataIndex: 'name' },
          {
            title: t('scales.items'),
            key: 'items',
            render: (_, s) => t('scales.itemCount', { count: s.definition.items.length }),
          },
          { title: t('scales.range'), key: 'range', render: (_, s) => span(s.range.min, s.range.max) },
          {
            title: t('scales.bands'),
            key: 'bands',
            render: (_, s) => (
              <Space size={[0, 4]} wrap>
                {s.definition.bands.map((b) => (
                  <Tag key={b.label}>
                    {b.label} {span(b.min, b.max)}
                  </Tag>
                ))}
              </Space>
            ),
          },
          { title: t('scales.filled'), dataIndex: 'filled', align: 'right' },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, s) => (
              <Space size={0} wrap>
                {can(MENU, 'add') && (
                  <Button type="link" size="small" onClick={() => setFilling(s)}>
                    {t('scales.fill')}
                  </Button>
                )}
                {can(MENU, 'edit') && (
                  <Button type="link" size="small" onClick={() => setEditing(s)}>
                    {t('common.edit')}
                  </Button>
                )}
                {can(MENU, 'delete') && (
                  <Popconfirm
                    title={t('common.confirmDelete', { name: s.name })}
                    onConfirm={async () => {
                      try {
                        await scaleApi.remove(s.id);
                        message.success(t('common.deleted'));
                        await list.refetch();
                      } catch (e) {
                        message.error((e as Error).message);
                      }
                    }}
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
      {can(MENU, 'get') && <History patientId={patientId} setPatientId={setPatientId} />}
      <BuiltinsModal
        open={builtins}
        onClose={() => setBuiltins(false)}
        onAdded={() => list.refetch()}
        title={t('common.builtins')}
        width={640}
        queryKey="scale-builtins"
        list={scaleApi.builtins}
        add={scaleApi.addBuiltin}
        describe={(b) => `${b.description} · ${t('scales.itemCount', { count: b.items })}`}
      />
      <FillModal
        scale={filling}
        onClose={() => setFilling(null)}
        onSaved={async (id) => {
          setPatientId(id);
          await list.refetch();
        }}
      />
      <DefinitionForm<AssessmentScale, ScaleForm, Parameters<typeof scaleApi.add>[0]>
        editing={editing}
        onClose={() => setEditing(null)}
        title={{ add: t('scales.add'), edit: t('scales.edit') }}
        width={720}
        initialValues={(existing) =>
          existing
            ? {
                name: existing.name,
                description: existing.description,
                definition: JSON.stringify(existing.definition, null, 2),
              }
            : { definition: t('scales.definitionHelp') }
        }
        toBody={(v) => {
          let definition: unknown;
          try {
            definition = JSON.parse(v.definition);
          } catch {
            message.error(t('scales.definitionInvalid'));
            return null;
          }
          return { name: v.name, description: v.description ?? '', definition } as Parameters<
            typeof scaleApi.add
          >[0];
        }}
        add={scaleApi.add}
        edit={scaleApi.edit}
        savedText={t('common.saved')}
        onSaved={() => list.refetch()}
      >
        <NameDescriptionFields
          nameLabel={t('common.name')}
          nameRequired={t('scales.nameRequired')}
          nameMax={FORMULA_NAME_MAX}
          descriptionLabel={t('common.description')}
          descriptionMax={FORMULA_DESCRIPTION_MAX}
        />
        <ProFormTextArea
          name="definition"
          label={t('scales.definition')}
          rules={[{ required: true, message: t('common.required') }]}
          fieldProps={{ rows: 12, style: { fontFamily: 'monospace' } }}
        />
      </DefinitionForm>
    </Space>
  );
}
