import { formatAge, genderLabel } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Descriptions, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { currentLocale } from '../../app/i18n';
import { Authorized, useHasAction } from '../../components/Authorized';
import { useTabObject } from '../../shell/useTabs';
import { CleanedValuesTab } from '../data-clean/CleanedValues';
import { patient360 } from './api';
import { CLINICAL_NS } from './i18n';
import { PatientFormButton } from './PatientForm';
import { PatientPicker } from './PatientPicker';
import {
  AllergiesTab,
  DiagnosesTab,
  ExamsTab,
  InHospitalTab,
  LabsTab,
  OperationsTab,
  OrdersTab,
  PatientFormsTab,
  PhysicalTab,
  VisitsTab,
} from './tabs';

/** The personal view's tabs: path segment, route name (its `.get` function shows the tab), count key. */
const TABS = [
  { key: 'inHospitalView', route: 'PersonalInHospitalView', count: 'vitalSigns' },
  { key: 'seeADoctor', route: 'PersonalSeeADoctor', count: 'visits' },
  { key: 'diagnose', route: 'PersonalDiagnose', count: 'diagnoses' },
  { key: 'allergy', route: 'PersonalAllergy', count: 'allergies' },
  { key: 'doctorsAdvice', route: 'PersonalDoctorsAdvice', count: 'orders' },
  { key: 'checkout', route: 'PersonalCheckout', count: 'labResults' },
  { key: 'examine', route: 'PersonalExamine', count: 'examReports' },
  { key: 'surgery', route: 'PersonalSurgery', count: 'operations' },
  { key: 'physicalExamination', route: 'PersonalPhysicalExamination', count: 'physicalExams' },
  { key: 'patientForm', route: 'PersonalPatientForm', count: '' },
  { key: 'cleaned', route: 'PersonalInHospitalView', count: '' },
] as const;

/**
 * Personal view (`/personalInformation/*`, also `/data-lake/patientDetails`): the patient's
 * card, a visit timeline and one tab per kind of data. `?id=` names the patient; without it
 * the page offers the patient search.
 */
export default function PersonalView() {
  const { t } = useTranslation(CLINICAL_NS);
  const locale = currentLocale();
  const can = useHasAction();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const id = Number(params.get('id')) || null;
  const fromPath = TABS.find(
    (x) =>
      location.pathname.endsWith(`/${x.key}`) ||
      (x.key === 'patientForm' && location.pathname.endsWith('/form/patient')),
  );
  const visible = TABS.filter((x) => can(x.route, 'get'));
  const [active, setActive] = useState<string>(
    fromPath && visible.includes(fromPath) ? fromPath.key : (visible[0]?.key ?? ''),
  );
  const qc = useQueryClient();
  const person = useQuery({ queryKey: ['person', id], queryFn: () => patient360.person(id!), enabled: !!id });
  // The patient's name in the tab, as this page shows it (masked when the reader may not see identities).
  useTabObject(person.data?.patient.name);

  if (!id) return <PatientPicker onPick={(p) => setParams({ id: String(p.id) })} />;
  if (person.isLoading || !person.data) return <Skeleton active />;
  const { patient, counts } = person.data;
  const age = formatAge(patient.birthDate).text[locale];

  const body: Record<string, ReactNode> = {
    inHospitalView: <InHospitalTab person={person.data} t={t} />,
    seeADoctor: <VisitsTab id={id} t={t} />,
    diagnose: <DiagnosesTab id={id} t={t} />,
    allergy: <AllergiesTab id={id} t={t} />,
    doctorsAdvice: <OrdersTab id={id} t={t} />,
    checkout: <LabsTab id={id} t={t} />,
    examine: <ExamsTab id={id} t={t} />,
    surgery: <OperationsTab id={id} t={t} />,
    physicalExamination: <PhysicalTab id={id} t={t} />,
    patientForm: <PatientFormsTab id={id} t={t} />,
    cleaned: <CleanedValuesTab patientId={id} />,
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        data-testid="patient-card"
        title={
          <Space>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="patient-name">
              {patient.name}
            </Typography.Title>
            <Tag>{genderLabel(patient.gender, locale)}</Tag>
            {age ? (
              <Tag color="blue" data-testid="patient-age">
                {age}
              </Tag>
            ) : null}
          </Space>
        }
        extra={
          <Space wrap>
            {/* A masked reader cannot see, so cannot correct, the identity fields. */}
            {!patient.identityMasked && (
              <Authorized apiId="DataLakeDataResourceMaintenance.import">
                <PatientFormButton
                  patient={patient}
                  onSaved={() => qc.invalidateQueries({ queryKey: ['person', id] })}
                />
              </Authorized>
            )}
            <Button onClick={() => navigate(location.pathname)}>{t('patient.search')}</Button>
          </Space>
        }
      >
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 4 }}>
          <Descriptions.Item label={t('patient.mrn')}>{patient.mrn}</Descriptions.Item>
          <Descriptions.Item label={t('patient.birthDate')}>{patient.birthDate ?? ''}</Descriptions.Item>
          <Descriptions.Item label={t('patient.nationalId')}>
            <span data-testid="patient-national-id">{patient.nationalId}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('patient.phone')}>{patient.phone}</Descriptions.Item>
          <Descriptions.Item label={t('patient.address')}>{patient.address}</Descriptions.Item>
          <Descriptions.Item label={t('dx.name')}>
            {[...new Set(person.data.diagnoses.map((d) => String(d.name)))].slice(0, 4).map((name) => (
              <Tag key={name} color="volcano">
                {name}
              </Tag>
            ))}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card>
        <Tabs
          activeKey={active}
          onChange={setActive}
          destroyInactiveTabPane
          items={visible.map((x) => ({
            key: x.key,
            label: (
              <span data-testid={`tab-${x.key}`}>
                {t(`tabs.${x.key}`)}{' '}
                {x.count && counts[x.count] ? (
                  <Badge count={counts[x.count]} overflowCount={999} color="#bfbfbf" />
                ) : null}
              </span>
            ),
            children: body[x.key],
          }))}
        />
      </Card>
    </Space>
  );
}
