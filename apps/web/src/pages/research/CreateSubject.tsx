import {
  ProFormDatePicker,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
  StepsForm,
} from '@ant-design/pro-components';
import {
  type CohortCondition,
  type CohortCriteria,
  RESEARCH_DESCRIPTION_MAX,
  RESEARCH_SUBJECT_NAME_MAX,
  RESEARCH_TARGET_SIZE_MAX,
  type ResearchVariableBody,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { App, Card, Checkbox, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSite } from '../../app/queries';
import { useSession } from '../../app/session';
import { researchApi } from './api';
import { RESEARCH_NS } from './i18n';
import { MembersEditor, type TeamRow, useAppUsers, userLabel } from './Team';

/** A variable without its label (the label is added in the creator's language). */
type Preset = ResearchVariableBody extends infer V ? (V extends unknown ? Omit<V, 'label'> : never) : never;

/** Preset variables a subject can take; the server reads each from the CDR. Labels are stored in the creator's language. */
const PRESETS: Preset[] = [
  { key: 'age', source: 'age' },
  { key: 'sex', source: 'gender' },
  { key: 'glu', source: 'lab', itemCode: 'GLU', aggregate: 'last' },
  { key: 'dm', source: 'diagnosis', codes: ['E11'] },
  { key: 'visits', source: 'visitCount' },
  { key: 'mi', source: 'survival', codes: ['I21'] },
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
  piUserId?: number;
  centers?: string[];
  crfFormId?: number;
}

function criteriaOf(v: Partial<Values>): CohortCriteria {
  const inclusion: CohortCondition[] = [];
  if (v.glucoseMin !== undefined && v.glucoseMin !== null)
    inclusion.push({ kind: 'lab', itemCode: 'GLU', min: v.glucoseMin });
  const codes = (v.diagnosis ?? '').split(/[,，\s]+/).filter(Boolean);
  if (codes.length) inclusion.push({ kind: 'diagnosis', codes });
  const exclusion: CohortCondition[] = v.excludeGender?.length
    ? [{ kind: 'gender', codes: v.excludeGender }]
    : [];
  return { match: 'all', inclusion, exclusion };
}

/** create-subject: a step form (basics, team, eligibility with a live count, variables, confirm). */
export default function CreateSubject() {
  const { t } = useTranslation(RESEARCH_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const types = useQuery({ queryKey: ['research', 'types'], queryFn: researchApi.types });
  const [vars, setVars] = useState<string[]>(['age', 'sex', 'glu', 'dm']);
  const [matched, setMatched] = useState<number | null>(null);
  const [all, setAll] = useState<Partial<Values>>({});
  const [members, setMembers] = useState<TeamRow[]>([]);
  const users = useAppUsers();
  const forms = useQuery({ queryKey: ['research', 'crf-forms'], queryFn: researchApi.crfForms });
  const { multiCenter } = useSite();
  const me = useSession().user?.UserId ?? 0;

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
            variables: PRESETS.filter((p) => vars.includes(p.key)).map((p) => ({
              ...p,
              label: t(`presets.${p.key}`),
            })),
            piUserId: merged.piUserId || undefined,
            members: members.filter((m) => m.userId !== merged.piUserId),
            centers: multiCenter ? (merged.centers ?? []) : [],
            crfFormId: merged.crfFormId || undefined,
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
          <ProFormText
            name="name"
            label={t('create.name')}
            rules={[{ required: true, whitespace: true, max: RESEARCH_SUBJECT_NAME_MAX }]}
            width="lg"
          />
          <ProFormSelect
            name="typeCode"
            label={t('create.type')}
            initialValue="cohort"
            options={(types.data ?? []).map((x) => ({ value: x.code, label: x.name }))}
            rules={[{ required: true }]}
            width="md"
          />
          <ProFormTextArea
            name="description"
            label={t('create.description')}
            rules={[{ max: RESEARCH_DESCRIPTION_MAX }]}
            width="lg"
          />
          <ProFormDatePicker
            name="startDate"
            label={t('create.start')}
            fieldProps={{ format: 'YYYY-MM-DD' }}
          />
          <ProFormDatePicker name="endDate" label={t('create.end')} fieldProps={{ format: 'YYYY-MM-DD' }} />
          <ProFormDigit name="targetSize" label={t('create.target')} min={0} max={RESEARCH_TARGET_SIZE_MAX} />
        </StepsForm.StepForm>
        <StepsForm.StepForm
          name="team"
          title={t('team.step')}
          onFinish={async (v) => {
            setAll((a) => ({ ...a, ...v }));
            return true;
          }}
        >
          <ProFormSelect
            name="piUserId"
            label={t('team.pi')}
            tooltip={t('team.piHelp')}
            placeholder={t('team.piHelp')}
            showSearch
            width="md"
            fieldProps={{ 'data-testid': 'pi-select', optionFilterProp: 'label' } as object}
            options={(users.data ?? []).map((u) => ({ value: u.userId, label: userLabel(u) }))}
          />
          <Typography.Paragraph strong>{t('team.members')}</Typography.Paragraph>
          <div style={{ maxWidth: 720, marginBottom: 24 }}>
            <MembersEditor value={members} onChange={setMembers} />
          </div>
          {multiCenter && (
            <ProFormSelect
              name="centers"
              label={t('team.centers')}
              tooltip={t('team.centersHelp')}
              mode="tags"
              width="lg"
              fieldProps={{ tokenSeparators: [',', '，'] }}
            />
          )}
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
              { value: 0, label: t('create.genderUnknown') },
              { value: 1, label: t('create.genderMale') },
              { value: 2, label: t('create.genderFemale') },
            ]}
          />
          {matched !== null && (
            <Typography.Text type="secondary">{t('create.matched', { n: matched })}</Typography.Text>
          )}
        </StepsForm.StepForm>
        <StepsForm.StepForm
          name="variables"
          title={t('create.variables')}
          onFinish={async (v) => {
            setAll((a) => ({ ...a, ...v }));
            return true;
          }}
        >
          <Checkbox.Group
            value={vars}
            onChange={(v) => setVars(v as string[])}
            options={PRESETS.map((p) => ({ value: p.key, label: t(`presets.${p.key}`) }))}
            style={{ marginBottom: 24 }}
          />
          <ProFormSelect
            name="crfFormId"
            label={t('create.crfForm')}
            tooltip={t('create.crfFormHelp')}
            width="md"
            allowClear
            fieldProps={{ 'data-testid': 'crf-form' } as object}
            options={(forms.data ?? []).map((f) => ({
              value: f.id,
              label: `${f.name} (v${f.latestVersion})`,
            }))}
          />
        </StepsForm.StepForm>
        <StepsForm.StepForm name="confirm" title={t('create.confirm')}>
          <Typography.Paragraph>
            {t('create.summary', {
              name: all.name,
              vars: vars.length,
              // The creator stays on the team (as PI when no one else is).
              members: new Set([...members.map((m) => m.userId), all.piUserId ?? me, me]).size,
            })}
          </Typography.Paragraph>
        </StepsForm.StepForm>
      </StepsForm>
    </Card>
  );
}
