import {
  FORMULA_DESCRIPTION_MAX,
  FORMULA_EXPRESSION_MAX,
  FORMULA_NAME_MAX,
  FORMULA_SOURCES,
  FORMULA_UNIT_MAX,
  type Formula,
  type FormulaCreate,
  type FormulaSource,
  type FormulaTestResult,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Divider,
  Drawer,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { useLabel } from '../../app/labels';
import { textRule } from '../../app/text-rule';
import { Authorized, useHasAction } from '../../components/Authorized';
import { DeleteLink } from '../../components/DeleteLink';
import { showServerFieldError } from '../../components/form/server-errors';
import { QueryTable } from '../../components/table/QueryTable';
import { BuiltinsModal } from './BuiltinsModal';
import { formulaApi } from './formulas-api';
import { FORMULAS_NS } from './formulas-i18n';
import { PatientSelect } from './PatientSelect';

const MENU = 'DataLakeFormulaEditor';
const NEEDS_CODE: readonly FormulaSource[] = ['lab', 'exam', 'firstDiagnosis', 'firstOperation'];

/** A formula's value as shown: numbers with the formula's decimals, dates as dates. */
export function showValue(v: FormulaTestResult['value'], decimals = 2): string {
  if (v === null) return '—';
  if (typeof v === 'number') return v.toFixed(decimals);
  if (typeof v === 'boolean') return String(v);
  return /^\d{4}-\d{2}-\d{2}T/.test(v) ? dayjs(v).format('YYYY-MM-DD') : v;
}

/** Works the formula as it stands in the editor out on one patient and lists its inputs. */
function TestPanel({ form }: { form: ReturnType<typeof Form.useForm<FormulaCreate>>[0] }) {
  const { t } = useTranslation(FORMULAS_NS);
  const word = useLabel();
  const [patientId, setPatientId] = useState<number>();
  const [result, setResult] = useState<FormulaTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const decimals = Form.useWatch('decimals', form) ?? 2;
  const unit = Form.useWatch('unit', form) ?? '';
  const run = async () => {
    if (!patientId) return;
    const v = form.getFieldsValue(true) as FormulaCreate;
    setBusy(true);
    setError(null);
    try {
      setResult(
        await formulaApi.test({
          patientId,
          expression: v.expression ?? '',
          variables: (v.variables ?? []).map((x) => ({ ...x, code: x.code ?? '' })),
        }),
      );
    } catch (e) {
      setResult(null);
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="formula-test">
      <Typography.Title level={5}>{t('formulas.testTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('formulas.testHint')}</Typography.Paragraph>
      <Space wrap>
        <PatientSelect value={patientId} onChange={setPatientId} testId="formula-test-patient" />
        <Button type="primary" disabled={!patientId} loading={busy} onClick={run}>
          {t('formulas.run')}
        </Button>
      </Space>
      {error && <Alert style={{ marginTop: 12 }} type="error" showIcon message={error} />}
      {result && (
        <Space direction="vertical" style={{ width: '100%', marginTop: 12 }}>
          {result.ok ? (
            <Alert
              type="success"
              showIcon
              data-testid="formula-test-result"
              message={`${t('formulas.result')}：${showValue(result.value, decimals)} ${unit}`.trim()}
              description={`${result.patient.name} · ${result.patient.mrn}`}
            />
          ) : (
            <Alert
              type="warning"
              showIcon
              data-testid="formula-test-result"
              message={result.error?.message}
              description={`${result.patient.name} · ${result.patient.mrn}`}
            />
          )}
          <Table
            size="small"
            rowKey="name"
            pagination={false}
            title={() => t('formulas.inputs')}
            dataSource={result.inputs}
            columns={[
              { title: t('formulas.variable'), dataIndex: 'name' },
              {
                title: t('formulas.source'),
                key: 'source',
                render: (_, i) => `${word('formulaSource', i.source)}${i.code ? ` · ${i.code}` : ''}`,
              },
              {
                title: t('formulas.inputValue'),
                key: 'value',
                render: (_, i) =>
                  i.value === null ? (
                    <Tag color="warning">{t('formulas.missing')}</Tag>
                  ) : (
                    `${showValue(i.value, typeof i.value === 'number' && Number.isInteger(i.value) ? 0 : 2)} ${i.unit}`
                  ),
              },
              {
                title: t('formulas.inputAt'),
                dataIndex: 'at',
                render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '—'),
              },
            ]}
          />
        </Space>
      )}
    </div>
  );
}

/** The editor of one formula (new or saved), with its test panel. */
function FormulaDrawer({
  editing,
  onClose,
  onSaved,
}: {
  editing: Formula | 'new' | null;
  onClose: () => void;
  onSaved: () => Promise<unknown>;
}) {
  const { t } = useTranslation(FORMULAS_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useHasAction();
  const [form] = Form.useForm<FormulaCreate>();
  const [saving, setSaving] = useState(false);
  const existing = editing && editing !== 'new' ? editing : null;
  const canSave = existing ? can(MENU, 'edit') : can(MENU, 'add');
  const save = async () => {
    const v = await form.validateFields();
    const body = { ...v, variables: (v.variables ?? []).map((x) => ({ ...x, code: x.code ?? '' })) };
    setSaving(true);
    try {
      if (existing) await formulaApi.edit(existing.id, body);
      else await formulaApi.add(body);
      message.success(t('common.saved'));
      await onSaved();
      onClose();
    } catch (e) {
      if (!showServerFieldError(form, e, ['name', 'unit', 'decimals', 'description', 'expression']))
        message.error((e as Error).message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Drawer
      open={!!editing}
      onClose={onClose}
      width={920}
      destroyOnHidden
      title={existing ? t('formulas.edit') : t('formulas.add')}
      data-testid="formula-drawer"
      extra={
        canSave && (
          <Button type="primary" loading={saving} onClick={save}>
            {t('common.save')}
          </Button>
        )
      }
    >
      <Form<FormulaCreate>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={
          existing
            ? { ...existing }
            : { decimals: 2, variables: [{ name: '', source: 'lab', code: '' }], expression: '' }
        }
      >
        <Space wrap align="start">
          <Form.Item
            name="name"
            label={t('common.name')}
            rules={[
              { required: true, whitespace: true, message: t('formulas.nameRequired') },
              textRule(currentLocale()),
            ]}
          >
            <Input maxLength={FORMULA_NAME_MAX} style={{ width: 320 }} />
          </Form.Item>
          <Form.Item name="unit" label={t('formulas.unit')} rules={[textRule(currentLocale())]}>
            <Input maxLength={FORMULA_UNIT_MAX} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="decimals" label={t('formulas.decimals')}>
            <InputNumber min={0} max={6} precision={0} />
          </Form.Item>
        </Space>
        <Form.Item name="description" label={t('common.description')} rules={[textRule(currentLocale())]}>
          <Input.TextArea rows={2} maxLength={FORMULA_DESCRIPTION_MAX} />
        </Form.Item>
        <Typography.Text strong>{t('formulas.variables')}</Typography.Text>
        <Form.List name="variables">
          {(fields, { add, remove }) => (
            <div style={{ marginTop: 8 }}>
              {fields.map((f) => (
                <Space key={f.key} align="start" wrap>
                  <Form.Item
                    name={[f.name, 'name']}
                    rules={[{ required: true, whitespace: true, message: t('common.required') }]}
                  >
                    <Input placeholder={t('formulas.variable')} style={{ width: 160 }} maxLength={40} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'source']}>
                    <Select
                      style={{ width: 200 }}
                      options={FORMULA_SOURCES.map((s) => ({ value: s, label: word('formulaSource', s) }))}
                    />
                  </Form.Item>
                  <Form.Item noStyle dependencies={[['variables', f.name, 'source']]}>
                    {() => {
                      const source = form.getFieldValue(['variables', f.name, 'source']) as FormulaSource;
                      const needs = NEEDS_CODE.includes(source);
                      return (
                        <Form.Item
                          name={[f.name, 'code']}
                          rules={
                            needs && source !== 'firstOperation'
                              ? [{ required: true, whitespace: true, message: t('common.required') }]
                              : []
                          }
                        >
                          <Input
                            style={{ width: 260 }}
                            maxLength={60}
                            disabled={!needs}
                            placeholder={t(`formulas.codePlaceholder.${needs ? (source as 'lab') : 'none'}`)}
                          />
                        </Form.Item>
                      );
                    }}
                  </Form.Item>
                  <Button type="link" danger onClick={() => remove(f.name)}>
                    {t('common.delete')}
                  </Button>
                </Space>
              ))}
              <div>
                <Button onClick={() => add({ name: '', source: 'lab', code: '' })}>
                  {t('formulas.addVariable')}
                </Button>
              </div>
            </div>
          )}
        </Form.List>
        <Form.Item
          style={{ marginTop: 16 }}
          name="expression"
          label={t('formulas.expression')}
          extra={t('formulas.expressionHelp')}
          rules={[{ required: true, whitespace: true, message: t('formulas.expressionRequired') }]}
        >
          <Input.TextArea
            rows={3}
            maxLength={FORMULA_EXPRESSION_MAX}
            style={{ fontFamily: 'monospace' }}
            data-testid="formula-expression"
          />
        </Form.Item>
      </Form>
      {can(MENU, 'get') && (
        <>
          <Divider />
          <TestPanel form={form} />
        </>
      )}
    </Drawer>
  );
}

/**
 * 公式编辑器 (`/data-lake/formula-editor`): the app's formulas over patients' clinical data,
 * each tested on a chosen patient with the inputs it used; built-in BMI, eGFR and MELD.
 */
export default function Formulas() {
  const { t } = useTranslation(FORMULAS_NS);
  const word = useLabel();
  const can = useHasAction();
  const [editing, setEditing] = useState<Formula | 'new' | null>(null);
  const [builtins, setBuiltins] = useState(false);
  const list = useQuery({ queryKey: ['formulas'], queryFn: formulaApi.list });
  return (
    <Card
      title={t('formulas.title')}
      data-testid="formulas"
      extra={
        <Authorized apiId={`${MENU}.add`}>
          <Space>
            <Button onClick={() => setBuiltins(true)}>{t('common.builtins')}</Button>
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('formulas.add')}
            </Button>
          </Space>
        </Authorized>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('formulas.hint')}</Typography.Text>
        <QueryTable<Formula>
          query={list}
          empty={t('formulas.empty')}
          errorTestId="formulas-error"
          rowKey="id"
          dataSource={list.data?.items ?? []}
          pagination={false}
          columns={[
            { title: t('common.name'), dataIndex: 'name' },
            {
              title: t('formulas.expression'),
              dataIndex: 'expression',
              render: (v: string) => (
                <Typography.Text code ellipsis={{ tooltip: v }} style={{ maxWidth: 360 }}>
                  {v}
                </Typography.Text>
              ),
            },
            {
              title: t('formulas.variables'),
              key: 'variables',
              render: (_, f) => (
                <Space size={[0, 4]} wrap>
                  {f.variables.map((v) => (
                    <Tag key={v.name}>
                      {v.name} ← {word('formulaSource', v.source)}
                      {v.code ? ` ${v.code}` : ''}
                    </Tag>
                  ))}
                </Space>
              ),
            },
            { title: t('formulas.unit'), dataIndex: 'unit' },
            {
              title: t('formulas.templates'),
              key: 'templates',
              render: (_, f) =>
                f.templates.length ? f.templates.map((x) => <Tag key={x.id}>{x.name}</Tag>) : '—',
            },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, f) => (
                <Space size={0} wrap>
                  {(can(MENU, 'edit') || can(MENU, 'get')) && (
                    <Button type="link" size="small" onClick={() => setEditing(f)}>
                      {can(MENU, 'edit') ? t('common.edit') : t('formulas.test')}
                    </Button>
                  )}
                  {can(MENU, 'delete') && (
                    <DeleteLink
                      name={f.name}
                      onDelete={() => formulaApi.remove(f.id)}
                      onDeleted={() => list.refetch()}
                    />
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Space>
      <FormulaDrawer editing={editing} onClose={() => setEditing(null)} onSaved={() => list.refetch()} />
      <BuiltinsModal
        open={builtins}
        onClose={() => setBuiltins(false)}
        onAdded={() => list.refetch()}
        title={t('formulas.builtinsTitle')}
        width={720}
        queryKey="formula-builtins"
        list={formulaApi.builtins}
        add={formulaApi.addBuiltin}
      />
    </Card>
  );
}
