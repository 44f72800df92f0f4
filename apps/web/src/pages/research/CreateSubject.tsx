import {
  ProFormDatePicker,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
  StepsForm,
} from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { App, Card, Checkbox, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { researchApi } from './api';
import { RESEARCH_NS } from './i18n';

/** Preset variables a subject can take; the server reads each from the CDR. */
const PRESETS = [
  { key: 'age', label: '年龄 / Age', source: 'age' },
  { key: 'sex', label: '性别 / Gender', source: 'gender' },
  { key: 'glu', label: '空腹血糖 / Glucose', source: 'lab', itemCode: 'GLU', aggregate: 'last' },
  { key: 'dm', label: '糖尿病 / Diabetes (E11)', source: 'diagnosis', codes: ['E11'] },
  { key: 'visits', label: '就诊次数 / Visits', source: 'visitCount' },
  { key: 'mi', label: '心梗生存 / MI survival (I21)', source: 'survival', codes: ['I21'] },
];

interface Values {
  name: string;
  typeCode: string;
  description?: string;
  startDate?: string;
  endDate?: string;
  targetSize?: number;
  glucoseMin?: number;
  diagnosis?: string;
  excludeGender?: number[];
}

function criteriaOf(v: Partial<Values>) {
  const inclusion: unknown[] = [];
  if (v.glucoseMin !== undefined && v.glucoseMin !== null)
    inclusion.push({ kind: 'lab', itemCode: 'GLU', min: v.glucoseMin });
  const codes = (v.diagnosis ?? '').split(/[,，\s]+/).filter(Boolean);
  if (codes.length) inclusion.push({ kind: 'diagnosis', codes });
  const exclusion = v.excludeGender?.length ? [{ kind: 'gender', codes: v.excludeGender }] : [];
  return { match: 'all', inclusion, exclusion };
}

/** create-subject: a step form (basics, eligibility with a live count, variables, confirm). */
export default function CreateSubject() {
  const { t } = useTranslation(RESEARCH_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const types = useQuery({ queryKey: ['research', 'types'], queryFn: researchApi.types });
  const [vars, setVars] = useState<string[]>(['age', 'sex', 'glu', 'dm']);
  const [matched, setMatched] = useState<number | null>(null);
  const [all, setAll] = useState<Partial<Values>>({});

  return (
    <Card title={t('create.title')}>
      <StepsForm<Values>
        onFinish={async (v) => {
          const merged = { ...all, ...v };
          const s = await researchApi.create({
            name: merged.name,
            typeCode: merged.typeCode,
            description: merged.description ?? '',
            startDate: merged.startDate || undefined,
            endDate: merged.endDate || undefined,
            targetSize: merged.targetSize ?? 0,
            criteria: criteriaOf(merged),
            variables: PRESETS.filter((p) => vars.includes(p.key)),
          });
          message.success(t('create.created'));
          navigate(`/scientific-research-subject/subject-list/project-data?id=${s.id}`);
          return true;
        }}
      >
        <StepsForm.StepForm
          name="basic"
          title={t('create.basic')}
          onFinish={async (v) => {
            setAll((a) => ({ ...a, ...v }));
            return true;
          }}
        >
          <ProFormText name="name" label={t('create.name')} rules={[{ required: true }]} width="lg" />
          <ProFormSelect
            name="typeCode"
            label={t('create.type')}
            initialValue="cohort"
            options={(types.data ?? []).map((x) => ({ value: x.code, label: x.name }))}
            rules={[{ required: true }]}
            width="md"
          />
          <ProFormTextArea name="description" label={t('create.description')} width="lg" />
          <ProFormDatePicker
            name="startDate"
            label={t('create.start')}
            fieldProps={{ format: 'YYYY-MM-DD' }}
          />
          <ProFormDatePicker name="endDate" label={t('create.end')} fieldProps={{ format: 'YYYY-MM-DD' }} />
          <ProFormDigit name="targetSize" label={t('create.target')} min={0} />
        </StepsForm.StepForm>
        <StepsForm.StepForm
          name="criteria"
          title={t('create.criteria')}
          onValuesChange={async (_, v) => {
            try {
              setMatched((await researchApi.count(criteriaOf(v))).count);
            } catch {
              setMatched(null);
            }
          }}
          onFinish={async (v) => {
            setAll((a) => ({ ...a, ...v }));
            return true;
          }}
        >
          <ProFormDigit name="glucoseMin" label={t('create.glucoseMin')} fieldProps={{ step: 0.1 }} />
          <ProFormText name="diagnosis" label={t('create.diagnosis')} placeholder="E11, I10" />
          <ProFormSelect
            name="excludeGender"
            label={t('create.excludeGender')}
            mode="multiple"
            options={[
              { value: 0, label: '未知 / Unknown' },
              { value: 1, label: '男 / Male' },
              { value: 2, label: '女 / Female' },
            ]}
          />
          {matched !== null && (
            <Typography.Text type="secondary">{t('create.matched', { n: matched })}</Typography.Text>
          )}
        </StepsForm.StepForm>
        <StepsForm.StepForm name="variables" title={t('create.variables')}>
          <Checkbox.Group
            value={vars}
            onChange={(v) => setVars(v as string[])}
            options={PRESETS.map((p) => ({ value: p.key, label: p.label }))}
          />
        </StepsForm.StepForm>
        <StepsForm.StepForm name="confirm" title={t('create.confirm')}>
          <Typography.Paragraph>
            {all.name} · {vars.length} {t('create.variables')}
          </Typography.Paragraph>
        </StepsForm.StepForm>
      </StepsForm>
    </Card>
  );
}
