import type { ResearchCatalogueItem } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Checkbox, Select, Space, Table, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoteSelect } from '../../components/RemoteSelect';
import { RemoveIconButton } from '../../components/RemoveIconButton';
import { researchApi } from './api';
import { RESEARCH_NS } from './i18n';
import {
  COMPUTED,
  type Computed,
  LAB_WINDOWS,
  type LabAggregate,
  type LabWindow,
  type Picked,
  type ZeroPoint,
} from './variables';

const AGGREGATES: LabAggregate[] = ['last', 'first', 'min', 'max', 'mean'];

interface Props {
  computed: Computed[];
  onComputed: (c: Computed[]) => void;
  picked: Picked[];
  onPicked: (p: Picked[]) => void;
  /** The zero point of times: the first visit (null) or a calculated T0 event. */
  zero: ZeroPoint | null;
  onZero: (z: ZeroPoint | null) => void;
}

/**
 * The variables of a new subject: the computed ones (age, gender, visits) and any lab item or
 * diagnosis category of the app's own data, found by searching the catalogue on the server.
 */
export function VariablePicker({ computed, onComputed, picked, onPicked, zero, onZero }: Props) {
  const { t } = useTranslation(RESEARCH_NS);
  // The items behind the options on screen, so a pick carries its name and unit.
  const seen = useRef(new Map<string, ResearchCatalogueItem>());
  const search = (kind: 'lab' | 'diagnosis') => async (q: string) => {
    const items = await researchApi.catalogue({ kind, q });
    for (const i of items) seen.current.set(`${kind}:${i.code}`, i);
    return items.map((i) => ({
      value: i.code,
      label: [i.name, i.code, i.unit, t('vars.patients', { n: i.patients })].filter(Boolean).join(' · '),
    }));
  };
  const add = (kind: 'lab' | 'diagnosis', code: string | number | undefined) => {
    const item = seen.current.get(`${kind}:${code}`);
    if (!item) return;
    const p: Picked =
      kind === 'lab' ? { source: 'lab', item, aggregate: 'last' } : { source: 'diagnosis', item };
    const same = (x: Picked) => x.item.kind === kind && x.item.code === item.code && x.source === p.source;
    if (!picked.some(same)) onPicked([...picked, p]);
  };
  const replace = (i: number, p: Picked) => onPicked(picked.map((x, j) => (j === i ? p : x)));
  const events = useQuery({
    queryKey: ['research', 'catalogue', 't0'],
    queryFn: () => researchApi.catalogue({ kind: 't0', q: '' }),
  });

  return (
    <Space direction="vertical" style={{ width: '100%', marginBottom: 24 }} data-testid="variable-picker">
      <Typography.Text strong>{t('vars.computedTitle')}</Typography.Text>
      <Checkbox.Group
        value={computed}
        onChange={(v) => onComputed(v as Computed[])}
        options={COMPUTED.map((c) => ({ value: c, label: t(`vars.computed.${c}`) }))}
      />
      <Typography.Text strong>{t('vars.zero')}</Typography.Text>
      <Space wrap>
        <Select<number>
          style={{ width: 320 }}
          value={zero?.eventId ?? 0}
          aria-label={t('vars.zero')}
          data-testid="var-zero"
          loading={events.isLoading}
          onChange={(id) => {
            const e = events.data?.find((x) => Number(x.code) === id);
            onZero(e ? { eventId: id, name: e.name, followUp: zero?.followUp ?? true } : null);
          }}
          options={[
            { value: 0, label: t('vars.zeroFirstVisit') },
            ...(events.data ?? []).map((e) => ({
              value: Number(e.code),
              label: `T0 · ${e.name} · ${t('vars.patients', { n: e.patients })}`,
            })),
          ]}
        />
        {zero && (
          <Checkbox checked={zero.followUp} onChange={(e) => onZero({ ...zero, followUp: e.target.checked })}>
            {t('vars.followUp')}
          </Checkbox>
        )}
      </Space>
      {events.isError && (
        <Alert type="error" showIcon message={t('vars.zeroLoadFailed', { message: events.error.message })} />
      )}
      <Typography.Text type="secondary">{t('vars.zeroHelp')}</Typography.Text>
      <Typography.Text strong>{t('vars.fromData')}</Typography.Text>
      <Space wrap>
        <RemoteSelect
          queryKey={['research', 'catalogue', 'lab']}
          search={search('lab')}
          value={null}
          onChange={(v) => add('lab', v)}
          placeholder={t('vars.addLab')}
          aria-label={t('vars.addLab')}
          style={{ width: 320 }}
          data-testid="var-lab"
        />
        <RemoteSelect
          queryKey={['research', 'catalogue', 'diagnosis']}
          search={search('diagnosis')}
          value={null}
          onChange={(v) => add('diagnosis', v)}
          placeholder={t('vars.addDiagnosis')}
          aria-label={t('vars.addDiagnosis')}
          style={{ width: 320 }}
          data-testid="var-diagnosis"
        />
      </Space>
      <Table<Picked>
        size="small"
        pagination={false}
        data-testid="picked-variables"
        rowKey={(p) => `${p.source}:${p.item.code}`}
        dataSource={picked}
        locale={{ emptyText: t('vars.none') }}
        columns={[
          { title: t('vars.variable'), render: (_, p) => `${p.item.name} (${p.item.code})` },
          {
            title: t('vars.source'),
            render: (_, p) => t(p.source === 'lab' ? 'vars.sourceLab' : 'vars.sourceDiagnosis'),
          },
          {
            title: t('vars.use'),
            render: (_, p, i) =>
              p.source === 'lab' ? (
                <Space size={4} wrap>
                  <Select<LabAggregate>
                    size="small"
                    style={{ width: 160 }}
                    value={p.aggregate}
                    aria-label={t('vars.use')}
                    data-testid={`var-use-${p.item.code}`}
                    onChange={(aggregate) => replace(i, { ...p, aggregate })}
                    options={AGGREGATES.map((a) => ({ value: a, label: t(`vars.aggregate.${a}`) }))}
                  />
                  {zero && (
                    <Select<LabWindow>
                      size="small"
                      style={{ width: 180 }}
                      value={p.window ?? 'all'}
                      data-testid={`var-window-${p.item.code}`}
                      onChange={(window) => replace(i, { ...p, window })}
                      options={LAB_WINDOWS.map((w) => ({ value: w, label: t(`vars.window.${w}`) }))}
                    />
                  )}
                </Space>
              ) : (
                <Select<'diagnosis' | 'survival'>
                  size="small"
                  style={{ width: 280 }}
                  value={p.source}
                  aria-label={t('vars.use')}
                  data-testid={`var-use-${p.item.code}`}
                  onChange={(source) => replace(i, { source, item: p.item })}
                  options={[
                    { value: 'diagnosis', label: t('vars.useDiagnosis') },
                    { value: 'survival', label: t('vars.useSurvival') },
                  ]}
                />
              ),
          },
          {
            title: '',
            width: 48,
            render: (_, p, i) => (
              <RemoveIconButton
                label={t('vars.remove', { name: p.item.name })}
                onClick={() => onPicked(picked.filter((_, j) => j !== i))}
              />
            ),
          },
        ]}
      />
    </Space>
  );
}
