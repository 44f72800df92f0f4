import { PlusOutlined } from '@ant-design/icons';
import { ModalForm, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import {
  CONCEPT_CODE_MAX,
  CONCEPT_CODE_PATTERN,
  CONCEPT_DISPLAY_MAX,
  type ConceptDetail,
  NEW_CODE_SCREENS,
  type TerminologyDomain,
} from '@crdp/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLabel } from '../../app/labels';
import { Authorized } from '../../components/Authorized';
import { saveOrShow } from '../../components/form/server-errors';
import { terminologyApi } from './api';
import { TerminologyBrowser } from './Browser';
import { TERMINOLOGY_NS } from './i18n';

interface LocalCodeForm {
  code: string;
  displayZh: string;
  displayEn?: string;
  synonyms?: string[];
}

/**
 * A new-code screen (新增疾病/手术/检验/药品编码): the browser of the screen's code system, and
 * "add a local extension code" at the top or under the open code. The server refuses a code the
 * system already has (409, shown in its words) and audits each addition.
 */
function NewCodeScreen({ domain }: { domain: TerminologyDomain }) {
  const { t } = useTranslation(TERMINOLOGY_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [, setParams] = useSearchParams();
  const screen = NEW_CODE_SCREENS[domain];
  const [parent, setParent] = useState<ConceptDetail | null | undefined>(undefined);
  const apiId = `${screen.routeName}.add`;

  const [refusal, setRefusal] = useState<string | null>(null);
  const save = (v: LocalCodeForm) =>
    saveOrShow(message, async () => {
      const made = await terminologyApi.addLocalCode(domain, {
        parentCode: parent?.code ?? null,
        code: v.code,
        displayZh: v.displayZh,
        displayEn: v.displayEn ?? '',
        synonyms: v.synonyms ?? [],
      });
      message.success(t('newCode.saved', { code: made.code }));
      await queryClient.invalidateQueries({ queryKey: ['terminology'] });
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.set('code', made.code);
          return next;
        },
        { replace: true },
      );
    });

  return (
    <Card
      title={word('terminologyDomain', domain)}
      extra={
        <Authorized apiId={apiId}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setParent(null)}>
            {t('newCode.add')}
          </Button>
        </Authorized>
      }
    >
      <Typography.Paragraph type="secondary">{t('newCode.hint')}</Typography.Paragraph>
      <TerminologyBrowser
        lockSystem={screen.systemKey}
        actions={(d) => (
          <Authorized apiId={apiId}>
            <Button icon={<PlusOutlined />} onClick={() => setParent(d)} data-testid="add-under">
              {t('newCode.addUnder', { code: d.code })}
            </Button>
          </Authorized>
        )}
      />
      <ModalForm<LocalCodeForm>
        title={parent ? t('newCode.addUnder', { code: parent.code }) : t('newCode.add')}
        open={parent !== undefined}
        modalProps={{
          destroyOnHidden: true,
          onCancel: () => {
            setParent(undefined);
            setRefusal(null);
          },
        }}
        onFinish={async (v) => {
          setRefusal(null);
          try {
            const ok = await save(v);
            if (ok) setParent(undefined);
            return ok;
          } catch (e) {
            // A refusal naming no field (409: the code is taken) stays in the dialog, in the server's words.
            setRefusal((e as Error).message);
            return false;
          }
        }}
      >
        {refusal && <Alert type="error" showIcon message={refusal} style={{ marginBottom: 16 }} />}
        <ProFormText
          label={t('newCode.parent')}
          readonly
          fieldProps={{ value: parent ? `${parent.code} ${parent.displayZh}` : t('newCode.parentNone') }}
        />
        <ProFormText
          name="code"
          label={t('newCode.code')}
          rules={[
            { required: true, whitespace: true, message: t('newCode.codeRequired') },
            { max: CONCEPT_CODE_MAX },
            { pattern: CONCEPT_CODE_PATTERN, message: t('newCode.codeRule') },
          ]}
          {...(parent ? { initialValue: `${parent.code}.` } : {})}
        />
        <ProFormText
          name="displayZh"
          label={t('newCode.displayZh')}
          rules={[
            { required: true, whitespace: true, message: t('newCode.displayZhRequired') },
            { max: CONCEPT_DISPLAY_MAX },
          ]}
        />
        <ProFormText name="displayEn" label={t('newCode.displayEn')} rules={[{ max: CONCEPT_DISPLAY_MAX }]} />
        <ProFormSelect
          name="synonyms"
          label={t('newCode.synonyms')}
          mode="tags"
          placeholder={t('newCode.synonymsHint')}
          fieldProps={{ open: false }}
        />
      </ModalForm>
    </Card>
  );
}

export const DiseaseNewCode = () => <NewCodeScreen domain="disease" />;
export const SurgeryNewCode = () => <NewCodeScreen domain="surgery" />;
export const InspectionNewCode = () => <NewCodeScreen domain="lab" />;
export const DrugNewCode = () => <NewCodeScreen domain="drug" />;
