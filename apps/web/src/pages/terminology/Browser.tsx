import type {
  ConceptDetail,
  ConceptDetailFull,
  ConceptHit,
  ConceptSummary,
  TerminologySystem,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Breadcrumb,
  Card,
  Col,
  Descriptions,
  Empty,
  Input,
  List,
  Row,
  Segmented,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { currentLocale } from '../../app/i18n';
import { useLabel } from '../../app/labels';
import { terminologyApi } from './api';
import { TERMINOLOGY_NS } from './i18n';

const systemName = (s: Pick<TerminologySystem, 'nameZh' | 'nameEn'>) =>
  currentLocale() === 'en-US' ? s.nameEn : s.nameZh;

/** The typed text, settled for 250 ms, so a search runs once a person pauses. */
function useSettled(text: string) {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const id = setTimeout(() => setSettled(text), 250);
    return () => clearTimeout(id);
  }, [text]);
  return settled;
}

function SystemCard({ s, active, onPick }: { s: TerminologySystem; active: boolean; onPick: () => void }) {
  const { t } = useTranslation(TERMINOLOGY_NS);
  const word = useLabel();
  return (
    <Card
      size="small"
      hoverable
      onClick={onPick}
      data-testid={`system-${s.systemKey}`}
      style={active ? { borderColor: '#1677ff' } : undefined}
      title={
        <Space>
          <span>{systemName(s)}</span>
          <Tag>{word('terminologyDomain', s.domain)}</Tag>
        </Space>
      }
    >
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('browser.version')}>
          {s.version || t('browser.notLoaded')}
        </Descriptions.Item>
        {/* A list not loaded has no licence of its own yet (the version line says so). */}
        <Descriptions.Item label={t('browser.licence')}>{s.version ? s.licence : '—'}</Descriptions.Item>
        {s.sourceUrl && (
          <Descriptions.Item label={t('browser.source')}>
            <Typography.Link href={s.sourceUrl} target="_blank" rel="noreferrer">
              {s.sourceUrl}
            </Typography.Link>
          </Descriptions.Item>
        )}
        <Descriptions.Item label={t('browser.loadedAt')}>
          {s.loadedAt ? new Date(s.loadedAt).toLocaleString(currentLocale()) : '—'}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Text type="secondary">
        {t('browser.counts', { standard: s.conceptCount, local: s.localCount })}
      </Typography.Text>
    </Card>
  );
}

function ConceptTag({ c }: { c: Pick<ConceptSummary, 'local' | 'retired'> }) {
  const { t } = useTranslation(TERMINOLOGY_NS);
  return (
    <>
      {c.local ? (
        <Tag color="purple">{t('browser.local')}</Tag>
      ) : (
        <Tag color="blue">{t('browser.standard')}</Tag>
      )}
      {c.retired && <Tag color="red">{t('browser.retired')}</Tag>}
    </>
  );
}

/** Where the code leads in other systems, and how often this hospital's data carries it. */
function MappingsAndUse({ d }: { d: ConceptDetailFull }) {
  const { t } = useTranslation(TERMINOLOGY_NS);
  const word = useLabel();
  const u = d.usage;
  const counts = (rows: number, patients: number, rowsBelow: number, patientsBelow: number) => (
    <Space direction="vertical" size={0}>
      <span>{t('browser.rowsPatients', { rows, patients })}</span>
      {d.children.length > 0 && (
        <Typography.Text type="secondary">
          {t('browser.withBelow', { rows: rowsBelow, patients: patientsBelow })}
        </Typography.Text>
      )}
    </Space>
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text strong>{t('browser.mappings')}</Typography.Text>
      {d.mappings.length ? (
        <List
          size="small"
          bordered
          data-testid="concept-mappings"
          dataSource={d.mappings}
          renderItem={(m) => (
            <List.Item>
              <Space>
                <Tag color={m.relation === 'equivalent' ? 'green' : 'blue'}>
                  {t(`browser.relation.${m.relation}`)}
                </Tag>
                <span>
                  {m.system} {m.code} {m.display}
                </span>
              </Space>
            </List.Item>
          )}
        />
      ) : (
        <Typography.Text type="secondary">{t('browser.noMappings')}</Typography.Text>
      )}
      <Typography.Text strong>{t('browser.usage', { table: word('cdrTable', u.table) })}</Typography.Text>
      <Typography.Text type="secondary">{t('browser.usageHow')}</Typography.Text>
      <Descriptions size="small" column={1} bordered data-testid="concept-usage">
        <Descriptions.Item label={t('browser.recorded')}>
          {counts(u.recordedRows, u.recordedPatients, u.recordedRowsBelow, u.recordedPatientsBelow)}
        </Descriptions.Item>
        <Descriptions.Item label={t('browser.coded')}>
          {counts(u.codedRows, u.codedPatients, u.codedRowsBelow, u.codedPatientsBelow)}
        </Descriptions.Item>
        <Descriptions.Item label={t('browser.localTerms', { count: u.localTermCount })}>
          {u.localTerms.length
            ? u.localTerms.map((x) => (
                <Tag key={x.term}>{t('browser.termRows', { term: x.term, rows: x.rows })}</Tag>
              ))
            : t('browser.noLocalTerms')}
        </Descriptions.Item>
      </Descriptions>
    </Space>
  );
}

function Detail({
  d,
  open,
  actions,
}: {
  d: ConceptDetailFull;
  open: (code: string) => void;
  actions?: (d: ConceptDetail) => ReactNode;
}) {
  const { t } = useTranslation(TERMINOLOGY_NS);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="concept-detail">
      <Breadcrumb
        items={[
          { title: systemName(d.system) },
          ...d.ancestors.map((a) => ({
            title: (
              <Typography.Link onClick={() => open(a.code)}>
                {a.code} {a.displayZh}
              </Typography.Link>
            ),
          })),
          { title: `${d.code} ${d.displayZh}` },
        ]}
      />
      <Typography.Title level={4} style={{ margin: 0 }}>
        {d.code} {d.displayZh} <ConceptTag c={d} />
      </Typography.Title>
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t('browser.englishName')}>{d.displayEn || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('browser.level')}>{d.level}</Descriptions.Item>
        <Descriptions.Item label={t('browser.pinyin')}>{d.pinyin || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('browser.version')}>{d.system.version || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('browser.synonyms')} span={2}>
          {d.synonyms.length ? d.synonyms.map((s) => <Tag key={s}>{s}</Tag>) : t('browser.noSynonyms')}
        </Descriptions.Item>
      </Descriptions>
      {actions?.(d)}
      <Typography.Text strong>{t('browser.children', { count: d.children.length })}</Typography.Text>
      {d.children.length ? (
        <List
          size="small"
          bordered
          data-testid="concept-children"
          style={{ maxHeight: 320, overflow: 'auto' }}
          dataSource={d.children}
          renderItem={(c) => (
            <List.Item>
              <Typography.Link onClick={() => open(c.code)}>
                {c.code} {c.displayZh}
              </Typography.Link>
              <ConceptTag c={c} />
            </List.Item>
          )}
        />
      ) : (
        <Typography.Text type="secondary">{t('browser.noChildren')}</Typography.Text>
      )}
      <MappingsAndUse d={d} />
    </Space>
  );
}

/**
 * The terminology browser: code systems with version and licence, a ranked concept search
 * (Chinese word, pinyin initials, code prefix) and a concept's detail with its ancestors, the
 * codes under it and its synonyms. The system, the search and the open code are in the address
 * (`?system=&code=`, and `q` to start with a search), so a link opens the same view. `lockSystem` keeps it to one system
 * (the new-code screens); `actions` adds buttons under a concept's detail.
 */
export function TerminologyBrowser({
  lockSystem,
  actions,
}: {
  lockSystem?: string;
  actions?: (d: ConceptDetail) => ReactNode;
}) {
  const { t } = useTranslation(TERMINOLOGY_NS);
  const word = useLabel();
  const [params, setParams] = useSearchParams();
  const system = lockSystem ?? params.get('system') ?? '';
  const code = params.get('code') ?? '';
  const [text, setText] = useState(params.get('q') ?? '');
  const q = useSettled(text.trim());
  const set = (patch: Record<string, string>) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        for (const [k, v] of Object.entries(patch)) v ? next.set(k, v) : next.delete(k);
        return next;
      },
      { replace: true },
    );

  const systems = useQuery({ queryKey: ['terminology', 'systems'], queryFn: terminologyApi.systems });
  const hits = useQuery({
    queryKey: ['terminology', 'search', system, q],
    queryFn: ({ signal }) => terminologyApi.search(q, system || undefined, signal),
    enabled: q.length > 0,
  });
  const openSystem = system || hits.data?.find((h) => h.code === code)?.systemKey || '';
  const detail = useQuery({
    queryKey: ['terminology', 'concept', openSystem, code],
    queryFn: () => terminologyApi.concept(openSystem, code),
    enabled: !!openSystem && !!code,
  });
  const shown = (systems.data ?? []).filter((s) => !lockSystem || s.systemKey === lockSystem);
  const open = (c: Pick<ConceptHit, 'systemKey' | 'code'>) =>
    set({ code: c.code, ...(lockSystem ? {} : { system: c.systemKey }) });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {systems.isError && <Alert type="error" showIcon message={(systems.error as Error).message} />}
      <Spin spinning={systems.isLoading}>
        <Row gutter={[12, 12]}>
          {shown.map((s) => (
            <Col key={s.systemKey} xs={24} md={12} xl={lockSystem ? 24 : 6}>
              <SystemCard
                s={s}
                active={s.systemKey === system}
                onPick={() =>
                  !lockSystem && set({ system: s.systemKey === system ? '' : s.systemKey, code: '' })
                }
              />
            </Col>
          ))}
        </Row>
      </Spin>
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <Card size="small">
            <Space direction="vertical" style={{ width: '100%' }}>
              {!lockSystem && (
                <Segmented
                  value={system}
                  onChange={(v) => set({ system: String(v), code: '' })}
                  options={[
                    { label: t('browser.allSystems'), value: '' },
                    ...(systems.data ?? []).map((s) => ({ label: s.systemKey, value: s.systemKey })),
                  ]}
                />
              )}
              <Input.Search
                allowClear
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder={t('browser.search')}
                aria-label={t('browser.search')}
                data-testid="concept-search"
              />
              {hits.isError && <Alert type="error" showIcon message={(hits.error as Error).message} />}
              <List
                size="small"
                loading={hits.isFetching}
                data-testid="concept-hits"
                locale={{ emptyText: q ? t('browser.noHits') : t('browser.typeToSearch') }}
                dataSource={q ? (hits.data ?? []) : []}
                style={{ maxHeight: 520, overflow: 'auto' }}
                renderItem={(h) => (
                  <List.Item
                    onClick={() => open(h)}
                    style={{
                      cursor: 'pointer',
                      background: h.code === code && h.systemKey === openSystem ? '#e6f4ff' : undefined,
                    }}
                  >
                    <List.Item.Meta
                      title={
                        <Space wrap>
                          <Typography.Text code>{h.code}</Typography.Text>
                          <span>{h.displayZh}</span>
                          {h.local && <Tag color="purple">{t('browser.local')}</Tag>}
                        </Space>
                      }
                      description={
                        <Space wrap size={4}>
                          {!lockSystem && <Tag>{h.systemKey}</Tag>}
                          <Tag color="green">{word('conceptMatch', h.match)}</Tag>
                          {h.matchedSynonym && (
                            <Typography.Text type="secondary">
                              {t('browser.viaSynonym', { term: h.matchedSynonym })}
                            </Typography.Text>
                          )}
                        </Space>
                      }
                    />
                  </List.Item>
                )}
              />
            </Space>
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title={t('browser.detail')}>
            {detail.isError && <Alert type="error" showIcon message={(detail.error as Error).message} />}
            {detail.isLoading && <Spin />}
            {detail.data ? (
              <Detail d={detail.data} open={(c) => set({ code: c })} {...(actions ? { actions } : {})} />
            ) : (
              !detail.isLoading &&
              !detail.isError && (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('browser.pick')} />
              )
            )}
          </Card>
        </Col>
      </Row>
    </Space>
  );
}

/** 术语浏览 (/lg/term/view, /lg/term): the browser over every code system. */
export default function TerminologyBrowserPage() {
  const { t } = useTranslation(TERMINOLOGY_NS);
  return (
    <Card title={t('browser.title')}>
      <Typography.Paragraph type="secondary">{t('browser.hint')}</Typography.Paragraph>
      <TerminologyBrowser />
    </Card>
  );
}
