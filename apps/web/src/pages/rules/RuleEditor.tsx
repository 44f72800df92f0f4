import {
  RULE_DESCRIPTION_MAX,
  RULE_NAME_MAX,
  type RuleActionInput,
  type RuleDetail,
  type RuleWhenInput,
} from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Divider, Drawer, Form, Input, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../api/client';
import { t0Api } from '../data-lake/reference-api';
import { ActionEditor, emptyAction } from './ActionEditor';
import { rulesApi } from './api';
import { ConditionEditor, emptyCondition } from './ConditionEditor';
import { RULES_NS } from './i18n';
import { SamplePanel } from './SamplePanel';

const fresh = (): { when: RuleWhenInput; actions: RuleActionInput[] } => ({
  when: { match: 'all', conditions: [emptyCondition()], groups: [] },
  actions: [emptyAction('fault')],
});

/** Where the server's 400 points (`body.when.conditions.0.value`), shown with its message. */
function refusal(e: unknown) {
  if (!(e instanceof RequestError)) return (e as Error).message;
  const field = (e.body as { field?: string } | undefined)?.field?.replace(/^body\./, '');
  return field ? `${e.message}（${field}）` : e.message;
}

/**
 * The rule editor: name, conditions (all/any, groups, time windows), actions, and the sample
 * panel. Saving keeps a draft; publishing reruns the saved samples and asks before publishing
 * when some now disagree.
 */
export function RuleEditor({
  ruleId,
  open,
  onClose,
  onSaved,
}: {
  ruleId: number | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation(RULES_NS);
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ name: string; description: string }>();
  const [id, setId] = useState<number | null>(ruleId);
  const [draft, setDraft] = useState(fresh);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The rule whose saved conditions fill the draft: a later refetch (a sample saved) keeps the edits.
  const [loadedFor, setLoadedFor] = useState<number | null>(null);
  useEffect(() => {
    if (!open) return;
    setId(ruleId);
    setLoadedFor(null);
    setError(null);
    if (!ruleId) {
      setDraft(fresh());
      form.resetFields();
    }
  }, [open, ruleId, form]);
  const detail = useQuery({
    queryKey: ['rules', 'detail', id],
    queryFn: () => rulesApi.detail(id!),
    enabled: open && id !== null,
  });
  const loaded = detail.data;
  useEffect(() => {
    if (!loaded || loaded.id === loadedFor) return;
    setLoadedFor(loaded.id);
    setDraft({ when: loaded.when, actions: loaded.actions });
    form.setFieldsValue({ name: loaded.name, description: loaded.description });
  }, [loaded, loadedFor, form]);
  const attrs = useQuery({ queryKey: ['rules', 'attributes'], queryFn: rulesApi.attributes, enabled: open });
  const targets = useQuery({
    queryKey: ['rules', 'targets'],
    queryFn: rulesApi.actionTargets,
    enabled: open,
  });
  const t0s = useQuery({ queryKey: ['t0-events'], queryFn: t0Api.list, enabled: open, retry: false });

  const save = async (publish: boolean, confirm = false): Promise<void> => {
    const v = await form.validateFields();
    setBusy(true);
    setError(null);
    try {
      const saved: RuleDetail = await rulesApi.save({
        ...(id ? { rule_id: id } : {}),
        name: v.name,
        description: v.description ?? '',
        when: draft.when,
        actions: draft.actions,
        publish,
        confirm,
      });
      setId(saved.id);
      setLoadedFor(saved.id);
      qc.setQueryData(['rules', 'detail', saved.id], saved);
      message.success(publish ? t('editor.publishedOk', { version: saved.version }) : t('editor.saved'));
      onSaved();
    } catch (e) {
      if (publish && e instanceof RequestError && e.status === 409)
        modal.confirm({
          title: t('editor.disagreeTitle'),
          content: e.message,
          okText: t('editor.publishAnyway'),
          cancelText: t('editor.cancel'),
          onOk: () => save(true, true),
        });
      else setError(refusal(e));
    } finally {
      setBusy(false);
    }
  };

  const loadError = detail.error ?? attrs.error;
  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={1080}
      destroyOnHidden
      title={
        <Space>
          {id ? t('editor.editTitle') : t('editor.newTitle')}
          {loaded && (
            <Tag color={loaded.status === 'published' ? 'green' : 'default'}>
              {t(loaded.status)} v{loaded.version}
            </Tag>
          )}
        </Space>
      }
      extra={
        <Space>
          <Button loading={busy} onClick={() => save(false)} data-testid="rule-save">
            {t('editor.save')}
          </Button>
          <Button type="primary" loading={busy} onClick={() => save(true)} data-testid="rule-publish">
            {t('editor.publish')}
          </Button>
        </Space>
      }
    >
      {loadError && <Alert type="error" showIcon message={loadError.message} style={{ marginBottom: 12 }} />}
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          closable
          onClose={() => setError(null)}
          style={{ marginBottom: 12 }}
          data-testid="rule-error"
        />
      )}
      <Spin spinning={detail.isFetching && !loaded}>
        <Form form={form} layout="vertical" initialValues={{ name: '', description: '' }}>
          <Space align="start" wrap>
            <Form.Item
              name="name"
              label={t('name')}
              rules={[{ required: true, whitespace: true, message: t('required') }]}
              style={{ width: 360 }}
            >
              <Input maxLength={RULE_NAME_MAX} />
            </Form.Item>
            <Form.Item name="description" label={t('description')} style={{ width: 560 }}>
              <Input maxLength={RULE_DESCRIPTION_MAX} />
            </Form.Item>
          </Space>
        </Form>
        <Typography.Title level={5}>{t('editor.when')}</Typography.Title>
        <ConditionEditor
          when={draft.when}
          attrs={attrs.data?.items ?? []}
          t0s={t0s.data?.items ?? []}
          onChange={(when) => setDraft({ ...draft, when })}
        />
        <Divider />
        <Typography.Title level={5}>{t('editor.actionList')}</Typography.Title>
        <ActionEditor
          actions={draft.actions}
          targets={targets.data?.items ?? []}
          onChange={(actions) => setDraft({ ...draft, actions })}
        />
        <Divider />
        <SamplePanel
          ruleId={id}
          when={draft.when}
          actions={draft.actions}
          attrs={attrs.data?.items ?? []}
          samples={loaded?.sampleList ?? []}
          onChanged={() => {
            detail.refetch();
            onSaved();
          }}
        />
      </Spin>
    </Drawer>
  );
}
