import { DownloadOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { formatAge, GENDER_TABLE, genderLabel } from '@crdp/core';
import {
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  List,
  Row,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { http, RequestError } from '../../api/client';
import { currentLocale } from '../../app/i18n';
import { Authorized } from '../../components/Authorized';
import { fullText, type SearchConditions, type SearchHit } from '../clinical/api';
import { CLINICAL_NS } from '../clinical/i18n';
import { day } from '../clinical/shared';
import { saveBlob } from '../crf/download';

interface FormValues {
  diagnosis?: string;
  labs?: Array<{ itemCode?: string; min?: number | null; max?: number | null }>;
  dates?: [Dayjs | null, Dayjs | null] | null;
  gender?: number;
  ageMin?: number | null;
  ageMax?: number | null;
  text?: string;
}

const LAB_ITEMS = ['ALT', 'AST', 'TBIL', 'ALB', 'AFP', 'HBVDNA', 'HCVRNA', 'PLT'];

function conditionsOf(v: FormValues): SearchConditions {
  const c: SearchConditions = {};
  if (v.diagnosis?.trim()) c.diagnosis = v.diagnosis.trim();
  const labs = (v.labs ?? [])
    .filter((l) => l?.itemCode)
    .map((l) => ({
      itemCode: l.itemCode!,
      ...(l.min != null ? { min: l.min } : {}),
      ...(l.max != null ? { max: l.max } : {}),
    }));
  if (labs.length) c.labs = labs;
  if (v.dates?.[0]) c.dateFrom = v.dates[0].format('YYYY-MM-DD');
  if (v.dates?.[1]) c.dateTo = v.dates[1].format('YYYY-MM-DD');
  if (v.gender !== undefined && v.gender !== null) c.gender = v.gender;
  if (v.ageMin != null) c.ageMin = v.ageMin;
  if (v.ageMax != null) c.ageMax = v.ageMax;
  if (v.text?.trim()) c.text = v.text.trim();
  return c;
}

/** Matched text marked; keys are the segments' character offsets. */
function Snippet({ segments }: { segments: Array<{ text: string; hit: boolean }> }) {
  let at = 0;
  return (
    <>
      {segments.map((s) => {
        const key = `o${at}`;
        at += s.text.length;
        return s.hit ? <mark key={key}>{s.text}</mark> : <span key={key}>{s.text}</span>;
      })}
    </>
  );
}

/** Multi-condition search (`/data-lake/full-text-retrieval`): conditions at once, matches marked, CSV export. */
export default function FullTextRetrieval() {
  const { t } = useTranslation(CLINICAL_NS);
  const locale = currentLocale();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const [conditions, setConditions] = useState<SearchConditions | null>(null);
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  // How many patients match (up to the server's cap) and whether more do.
  const [total, setTotal] = useState<{ count: number; capped: boolean } | null>(null);
  const [loading, setLoading] = useState(false);

  const run = async (c: SearchConditions, after?: string) => {
    setLoading(true);
    if (!after) {
      // A new search starts empty: no earlier result, count or "load more" stays on screen.
      setHits([]);
      setCursor(null);
      setTotal(null);
    }
    try {
      const r = await fullText.search({ ...c, size: 20, ...(after ? { cursor: Number(after) } : {}) });
      setHits((h) => (after ? [...h, ...r.items] : r.items));
      setCursor(r.nextCursor);
      if (r.total !== null) setTotal({ count: r.total, capped: r.totalCapped });
    } catch (e) {
      message.error(e instanceof RequestError ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  };
  const submit = async () => {
    const c = conditionsOf(await form.validateFields());
    if (!Object.keys(c).length) {
      message.warning(t('fts.needOne'));
      return;
    }
    setConditions(c);
    await run(c);
  };
  const exportCsv = async () => {
    if (!conditions) return;
    const res = await http.post(`/api/v0.1/${fullText.exportUrl}`, conditions, { responseType: 'blob' });
    saveBlob(res.data as Blob, 'full-text-retrieval.csv');
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card title={t('fts.title')}>
        <Form form={form} layout="vertical" onFinish={submit}>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="diagnosis" label={t('fts.diagnosis')}>
                <Input allowClear placeholder="肝硬化 / K74" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="dates" label={t('fts.dates')}>
                <DatePicker.RangePicker style={{ width: '100%' }} allowEmpty={[true, true]} />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              <Form.Item name="gender" label={t('fts.gender')}>
                <Select
                  allowClear
                  options={GENDER_TABLE.map((g) => ({ value: g.code, label: g.label[locale] }))}
                />
              </Form.Item>
            </Col>
            <Col xs={6} md={2}>
              <Form.Item name="ageMin" label={t('fts.ageMin')}>
                <InputNumber min={0} max={150} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={6} md={2}>
              <Form.Item name="ageMax" label={t('fts.ageMax')}>
                <InputNumber min={0} max={150} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="text" label={t('fts.text')}>
                <Input allowClear placeholder="腹水 黄染" data-testid="fts-text" />
              </Form.Item>
            </Col>
          </Row>
          <Form.List name="labs">
            {(items, { add, remove }) => (
              <>
                {items.map((f) => (
                  <Space key={f.key} align="baseline">
                    <Form.Item name={[f.name, 'itemCode']} label={t('fts.lab')} rules={[{ required: true }]}>
                      <Select
                        style={{ width: 160 }}
                        options={LAB_ITEMS.map((x) => ({ value: x, label: x }))}
                      />
                    </Form.Item>
                    <Form.Item name={[f.name, 'min']} label={t('fts.min')}>
                      <InputNumber />
                    </Form.Item>
                    <Form.Item name={[f.name, 'max']} label={t('fts.max')}>
                      <InputNumber />
                    </Form.Item>
                    <MinusCircleOutlined onClick={() => remove(f.name)} />
                  </Space>
                ))}
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add()}
                  style={{ marginBottom: 16 }}
                >
                  {t('fts.addLab')}
                </Button>
              </>
            )}
          </Form.List>
          <Space style={{ display: 'flex' }}>
            <Button type="primary" htmlType="submit" loading={loading} data-testid="fts-submit">
              {t('common.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                setHits([]);
                setCursor(null);
                setTotal(null);
                setConditions(null);
              }}
            >
              {t('common.reset')}
            </Button>
            <Authorized apiId="DataLakeFullTextRetrieval.export">
              <Button icon={<DownloadOutlined />} disabled={!conditions} onClick={exportCsv}>
                {t('common.export')}
              </Button>
            </Authorized>
          </Space>
        </Form>
      </Card>
      <Card
        title={t('fts.results')}
        extra={
          total !== null && (
            <Typography.Text type="secondary" data-testid="fts-total">
              {t(total.capped ? 'fts.totalMore' : 'fts.total', { count: total.count })}
            </Typography.Text>
          )
        }
      >
        <List
          data-testid="fts-results"
          loading={loading}
          dataSource={hits}
          loadMore={
            cursor && hits.length > 0 ? (
              <div style={{ textAlign: 'center', marginTop: 12 }}>
                <Button onClick={() => conditions && run(conditions, cursor)}>{t('common.more')}</Button>
              </div>
            ) : null
          }
          renderItem={(p) => (
            <List.Item>
              <List.Item.Meta
                title={
                  <Space>
                    <Button
                      type="link"
                      style={{ padding: 0 }}
                      onClick={() => navigate(`/personalInformation/inHospitalView?id=${p.id}`)}
                    >
                      {p.name}
                    </Button>
                    <Tag>{genderLabel(p.gender, locale)}</Tag>
                    <Tag>{formatAge(p.birthDate).text[locale]}</Tag>
                    <Typography.Text type="secondary">{p.mrn}</Typography.Text>
                    {p.diagnoses.slice(0, 4).map((d) => (
                      <Tag color="volcano" key={d}>
                        {d}
                      </Tag>
                    ))}
                    {p.labs.map((l) => (
                      <Tag color="blue" key={l.itemCode}>
                        {l.itemCode} {l.valueNum}
                        {l.unit}
                      </Tag>
                    ))}
                  </Space>
                }
                description={p.documents.map((d) => (
                  <div key={d.documentId} className="fts-snippet">
                    <Typography.Text strong>
                      {d.title} {day(d.writtenAt)}:{' '}
                    </Typography.Text>
                    <Snippet segments={d.snippet} />
                  </div>
                ))}
              />
            </List.Item>
          )}
        />
      </Card>
    </Space>
  );
}
