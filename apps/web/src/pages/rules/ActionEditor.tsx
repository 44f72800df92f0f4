import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  RULE_ACTION_KINDS,
  RULE_FAULT_LEVELS,
  type RuleActionInput,
  type RuleActionTargetList,
} from '@crdp/core';
import { AutoComplete, Button, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { RULES_NS } from './i18n';

type Kind = RuleActionInput['kind'];

export function emptyAction(kind: Kind): RuleActionInput {
  switch (kind) {
    case 'fault':
      return { kind, level: 'warning', message: '' };
    case 'derive':
      return { kind, name: '', value: '' };
    case 'tag':
      return { kind, tag: '' };
    case 'notify':
      return { kind, role: '', message: '' };
  }
}

/** What a rule does for every patient it fires on: an alert, a derived value, a tag, a notice to a role. */
export function ActionEditor({
  actions,
  targets,
  onChange,
}: {
  actions: RuleActionInput[];
  targets: RuleActionTargetList['items'];
  onChange: (a: RuleActionInput[]) => void;
}) {
  const { t } = useTranslation(RULES_NS);
  const of = (kind: 'derive' | 'tag' | 'role') =>
    targets.filter((x) => x.kind === kind).map((x) => ({ value: x.key, label: x.label }));
  const set = (i: number, a: RuleActionInput) => onChange(actions.map((x, j) => (j === i ? a : x)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="rule-actions">
      {actions.map((a, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: actions have no id; their place is their identity
        <Space key={i} wrap data-testid={`rule-action-${i}`}>
          <Select
            style={{ width: 130 }}
            aria-label={t('actions')}
            value={a.kind}
            onChange={(k: Kind) => set(i, emptyAction(k))}
            options={RULE_ACTION_KINDS.map((k) => ({ value: k, label: t(`editor.${k}`) }))}
          />
          {a.kind === 'fault' && (
            <>
              <Select
                style={{ width: 110 }}
                value={a.level}
                onChange={(level) => set(i, { ...a, level })}
                options={RULE_FAULT_LEVELS.map((l) => ({ value: l, label: t(`editor.${l}`) }))}
              />
              <Input
                style={{ width: 300 }}
                aria-label={t('editor.message')}
                placeholder={t('editor.message')}
                maxLength={200}
                value={a.message}
                onChange={(e) => set(i, { ...a, message: e.target.value })}
              />
            </>
          )}
          {a.kind === 'derive' && (
            <>
              <AutoComplete
                style={{ width: 180 }}
                placeholder={t('editor.deriveName')}
                options={of('derive')}
                value={a.name}
                onChange={(name: string) => set(i, { ...a, name })}
              />
              <Input
                style={{ width: 160 }}
                placeholder={t('editor.value')}
                value={String(a.value ?? '')}
                onChange={(e) => set(i, { ...a, value: e.target.value })}
              />
            </>
          )}
          {a.kind === 'tag' && (
            <AutoComplete
              style={{ width: 220 }}
              aria-label={t('editor.tagName')}
              placeholder={t('editor.tagName')}
              options={of('tag')}
              value={a.tag}
              onChange={(tag: string) => set(i, { ...a, tag })}
            />
          )}
          {a.kind === 'notify' && (
            <>
              <Select
                style={{ width: 180 }}
                placeholder={t('editor.role')}
                options={of('role')}
                value={a.role || undefined}
                onChange={(role: string) => set(i, { ...a, role })}
              />
              <Input
                style={{ width: 260 }}
                placeholder={t('editor.message')}
                maxLength={200}
                value={a.message}
                onChange={(e) => set(i, { ...a, message: e.target.value })}
              />
            </>
          )}
          <Button
            size="small"
            type="text"
            icon={<DeleteOutlined />}
            aria-label={t('editor.remove')}
            onClick={() => onChange(actions.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        onClick={() => onChange([...actions, emptyAction('fault')])}
      >
        {t('editor.addAction')}
      </Button>
    </Space>
  );
}
