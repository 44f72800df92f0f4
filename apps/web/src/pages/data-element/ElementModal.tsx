import { DATA_ELEMENT_TYPES, type DataElement } from '@crdp/core';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../api/client';
import { elementsApi } from './api';
import { ELEMENT_NS } from './i18n';

interface Values {
  code: string;
  name: string;
  type: (typeof DATA_ELEMENT_TYPES)[number];
  unit: string;
  valueSet: string;
  derivation: string;
  description: string;
  note: string;
}

const toValueSet = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [code = '', ...rest] = l.split('=');
      return { code: code.trim(), label: rest.join('=').trim() || code.trim() };
    });

/** Create a data element, or publish a new version of one (the whole definition, with a note). */
export function ElementModal({
  element,
  onClose,
  onSaved,
}: {
  element: DataElement | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation(ELEMENT_NS);
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const d = element?.definition;
  const save = async () => {
    const v = await form.validateFields();
    setBusy(true);
    setError(null);
    const definition = {
      name: v.name,
      type: v.type,
      unit: v.unit ?? '',
      valueSet: toValueSet(v.valueSet ?? ''),
      derivation: v.derivation ?? '',
      description: v.description ?? '',
    };
    try {
      if (element) await elementsApi.publish(element.id, { definition, note: v.note ?? '' });
      else await elementsApi.create({ code: v.code, definition, note: v.note ?? '' });
      onSaved();
    } catch (e) {
      const field = e instanceof RequestError ? (e.body as { field?: string } | undefined)?.field : undefined;
      setError(field ? `${(e as Error).message}（${field}）` : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      width={640}
      title={element ? `${t('publish')} · ${element.code}` : t('create')}
      onCancel={onClose}
      onOk={save}
      confirmLoading={busy}
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          code: element?.code ?? '',
          name: d?.name ?? '',
          type: d?.type ?? 'number',
          unit: d?.unit ?? '',
          valueSet: (d?.valueSet ?? []).map((x) => `${x.code}=${x.label}`).join('\n'),
          derivation: d?.derivation ?? '',
          description: d?.description ?? '',
          note: '',
        }}
      >
        {!element && (
          <Form.Item
            name="code"
            label={t('code')}
            rules={[{ required: true, whitespace: true, message: t('required') }]}
          >
            <Input maxLength={40} />
          </Form.Item>
        )}
        <Form.Item
          name="name"
          label={t('name')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input maxLength={60} />
        </Form.Item>
        <Form.Item name="type" label={t('type')}>
          <Select options={DATA_ELEMENT_TYPES.map((x) => ({ value: x, label: t(`types.${x}`) }))} />
        </Form.Item>
        <Form.Item name="unit" label={t('unit')}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="valueSet" label={t('valueSet')} extra={t('valueSetHint')}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Form.Item name="derivation" label={t('derivation')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Form.Item name="description" label={t('description')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Form.Item name="note" label={t('note')}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
