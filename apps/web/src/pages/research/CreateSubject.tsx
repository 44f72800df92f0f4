import {
  ProFormDatePicker,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
  StepsForm,
} from '@ant-design/pro-components';
import { RESEARCH_DESCRIPTION_MAX, RESEARCH_SUBJECT_NAME_MAX, RESEARCH_TARGET_SIZE_MAX } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { App, Card, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSite } from '../../app/queries';
import { useSession } from '../../app/session';
import {
  ConditionBuilder,
  completeCriteria,
  type DraftCriteria,
  emptyDraft,
} from '../../components/cohort/ConditionBuilder';
import { researchApi } from './api';
import { RESEARCH_NS } from './i18n';
import { MembersEditor, type TeamRow, useAppUsers, userLabel } from './Team';
import { VariablePicker } from './VariablePicker';
import { type Computed, type Picked, variablesOf, type ZeroPoint } from './variables';

interface Values {
  name: string;
  typeCode: string;
  description?: string;
  startDate?: string;
  endDate?: string;
  targetSize?: number;
  piUserId?: number;
  centers?: string[];
  crfFormId?: number;
}

/**
 * create-subject: a step form (basics, team, eligibility in the cohort condition builder with a
 * live count, variables from the app's own data, confirm).
 */
export default function CreateSubject() {
  const { t } = useTranslation(RESEARCH_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const types = useQuery({ queryKey: ['research', 'types'], queryFn: researchApi.types });
  const [computed, setComputed] = useState<Computed[]>(['age', 'gender']);
  const [picked, setPicked] = useState<Picked[]>([]);
  const [zero, setZero] = useState<ZeroPoint | null>(null);
  const [criteria, setCriteria] = useState<DraftCriteria>(emptyDraft);
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
            criteria: completeCriteria(criteria),
            variables: variablesOf(
              computed,
              picked,
              {
                computed: (c) => t(`vars.computed.${c}`),
                diagnosis: (name, code) => t('vars.diagnosisLabel', { name, code }),
                survival: (name, code) => t('vars.survivalLabel', { name, code }),
                followUp: (event) => t('vars.followUpLabel', { event }),
              },
              zero,
            ),
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
        <StepsForm.StepForm name="criteria" title={t('create.criteria')}>
          <div style={{ maxWidth: 960, marginBottom: 24 }}>
            <ConditionBuilder
              value={criteria}
              onChange={setCriteria}
              count={async (c) => (await researchApi.count(c)).count}
              countText={(n) => t('create.matched', { n })}
            />
          </div>
        </StepsForm.StepForm>
        <StepsForm.StepForm
          name="variables"
          title={t('create.variables')}
          onFinish={async (v) => {
            setAll((a) => ({ ...a, ...v }));
            return true;
          }}
        >
          <VariablePicker
            computed={computed}
            onComputed={setComputed}
            picked={picked}
            onPicked={setPicked}
            zero={zero}
            onZero={setZero}
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
              vars: computed.length + picked.length,
              // The creator stays on the team (as PI when no one else is).
              members: new Set([...members.map((m) => m.userId), all.piUserId ?? me, me]).size,
            })}
          </Typography.Paragraph>
        </StepsForm.StepForm>
      </StepsForm>
    </Card>
  );
}
