import { ProFormDatePicker, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { App, Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { addScreenTexts } from '../../app/i18n';
import { useLabelOptions } from '../../app/labels';
import { GuardedModalForm } from '../../components/form/GuardedModalForm';
import { useNationalIdRule } from '../../components/form/national-id';
import { type CdrPatientInput, cdr, type Patient } from './api';

const NS = addScreenTexts(
  'patientForm',
  {
    create: '登记患者',
    edit: '编辑登记信息',
    mrn: '病案号',
    name: '姓名',
    gender: '性别',
    birthDate: '出生日期',
    nationalId: '身份证号',
    phone: '电话',
    address: '地址',
    required: '请填写{{field}}',
    saved: '已保存',
  },
  {
    create: 'Register a patient',
    edit: 'Edit registration',
    mrn: 'MRN',
    name: 'Name',
    gender: 'Sex',
    birthDate: 'Date of birth',
    nationalId: 'National ID number',
    phone: 'Phone',
    address: 'Address',
    required: 'Enter the {{field}}',
    saved: 'Saved',
  },
);

interface Values {
  mrn: string;
  name: string;
  gender: string;
  birthDate?: string;
  nationalId?: string;
  phone?: string;
  address?: string;
}

const blankToUndefined = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);

/**
 * Registers a patient by hand, or corrects one's registration (`patient`). The national ID field
 * is checked in the browser with the server's own check (spec 001), in the screen's language.
 */
export function PatientFormButton({
  patient,
  trigger,
  onSaved,
}: {
  patient?: Patient;
  trigger?: ReactNode;
  onSaved?: (p: Patient) => void;
}) {
  const { t } = useTranslation(NS);
  const { message } = App.useApp();
  const genders = useLabelOptions('gender');
  const nationalIdRule = useNationalIdRule();
  const need = (field: string) => ({
    required: true,
    message: t('required', { field: t(field).toLowerCase() }),
  });
  return (
    <GuardedModalForm<Values>
      title={patient ? t('edit') : t('create')}
      width={560}
      modalProps={{ destroyOnHidden: true }}
      trigger={
        (trigger as JSX.Element | undefined) ?? (
          <Button
            type={patient ? 'default' : 'primary'}
            data-testid={patient ? 'patient-edit' : 'patient-create'}
          >
            {patient ? t('edit') : t('create')}
          </Button>
        )
      }
      initialValues={
        patient
          ? {
              mrn: patient.mrn,
              name: patient.name,
              gender: String(patient.gender),
              birthDate: patient.birthDate ?? undefined,
              nationalId: patient.nationalId,
              phone: patient.phone,
              address: patient.address,
            }
          : { gender: '0' }
      }
      onFinish={async (v) => {
        const input: CdrPatientInput = {
          mrn: v.mrn.trim(),
          name: v.name.trim(),
          gender: Number(v.gender),
          birthDate: blankToUndefined(v.birthDate),
          nationalId: blankToUndefined(v.nationalId)?.toUpperCase(),
          phone: blankToUndefined(v.phone),
          address: blankToUndefined(v.address),
          contacts: patient?.contacts
            .filter((c) => !!c.name)
            .map((c) => ({
              name: c.name!,
              relation: c.relation || undefined,
              phone: c.phone || undefined,
            })),
        };
        try {
          const saved = patient ? await cdr.updatePatient(patient.id, input) : await cdr.createPatient(input);
          message.success(t('saved'));
          onSaved?.(saved);
          return true;
        } catch (e) {
          message.error((e as Error).message);
          return false;
        }
      }}
    >
      <ProFormText name="mrn" label={t('mrn')} rules={[need('mrn')]} fieldProps={{ maxLength: 40 }} />
      <ProFormText name="name" label={t('name')} rules={[need('name')]} fieldProps={{ maxLength: 100 }} />
      <ProFormSelect name="gender" label={t('gender')} options={genders} allowClear={false} />
      <ProFormDatePicker name="birthDate" label={t('birthDate')} fieldProps={{ format: 'YYYY-MM-DD' }} />
      <ProFormText
        name="nationalId"
        label={t('nationalId')}
        rules={[nationalIdRule]}
        fieldProps={{ maxLength: 18, 'data-testid': 'patient-national-id' } as object}
      />
      <ProFormText name="phone" label={t('phone')} fieldProps={{ maxLength: 30 }} />
      <ProFormText name="address" label={t('address')} fieldProps={{ maxLength: 200 }} />
    </GuardedModalForm>
  );
}
