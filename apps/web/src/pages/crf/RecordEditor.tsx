import { CRF_REASON_MAX, type Form } from '@crdp/crf';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Form as AntForm,
  App,
  Button,
  Drawer,
  Input,
  Modal,
  Space,
  Spin,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../../components/Authorized';
import { CutText } from '../../components/CutText';
import {
  CrfRenderer,
  type CrfRendererHandle,
  type ItemIssue,
  itemsByKey,
} from '../../components/crf/CrfRenderer';
import { CRF_NS } from '../../components/crf/i18n';
import { StatusTag } from '../../components/crf/RecordStatusTag';
import { type RemoteOption, RemoteSelect } from '../../components/RemoteSelect';
import { useUnsavedChanges } from '../../components/useUnsavedChanges';
import { useTabObject } from '../../shell/useTabs';
import { type CrfRecord, crfApi, fieldOf, issuesOf, refusalText } from './api';
import { Prefill } from './Prefill';

export { StatusTag };

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const show = (v: unknown) =>
  v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
/** A value in a table cell: cut by the spec's rule (the shared CutText), whole on hover. */
const cell = (v: unknown) => <CutText text={show(v)} />;

export interface RecordEditorProps {
  formId: number;
  /** An existing record; without it the editor starts a new one against the latest version. */
  recordId?: number | undefined;
  subjectCode?: string | undefined;
  patientId?: number | undefined;
  /** The patient's name when the page knows the patient: shown as the subject, the code beside it. */
  patientName?: string | undefined;
  /** A free-access link: no verify, lock or history of others. */
  free?: boolean;
  onSaved?: (record: CrfRecord, submitted: boolean) => void;
}

/** The subject of a record: the patient's name with the subject code as secondary text, else the code. */
function SubjectLine({ name, code }: { name?: string | undefined; code: string }) {
  const { t } = useTranslation(CRF_NS);
  return (
    <span data-testid="crf-subject-line">
      {t('records.subject')}：
      {name ? (
        <>
          <Typography.Text strong data-testid="crf-subject-name">
            {name}
          </Typography.Text>
          {code && (
            <Typography.Text type="secondary" style={{ marginLeft: 6 }} data-testid="crf-subject-code">
              {code}
            </Typography.Text>
          )}
        </>
      ) : (
        code
      )}
    </span>
  );
}

/** Searches the app's patients by name or MRN as the person types (the server does the search). */
const searchPatients = async (keyword: string): Promise<RemoteOption[]> =>
  (await crfApi.patients(keyword)).items.map((p) => ({ value: p.id, label: `${p.name}（${p.mrn}）` }));

/** The patient picker of a record: the app's patients by name or MRN. */
function PatientPicker(props: {
  value: RemoteOption | null;
  onChange: (v: RemoteOption | null) => void;
  error: string | null;
  disabled?: boolean;
}) {
  const { t } = useTranslation(CRF_NS);
  return (
    <AntForm.Item
      label={t('subject.patient')}
      required
      validateStatus={props.error ? 'error' : undefined}
      help={props.error ?? undefined}
      style={{ marginBottom: 0 }}
    >
      <RemoteSelect
        id="crf-patient"
        style={{ width: 300 }}
        queryKey={['crf', 'patients']}
        search={searchPatients}
        placeholder={t('subject.pickPatient')}
        value={props.value?.value}
        selected={props.value}
        disabled={props.disabled}
        onChange={(_, option) => {
          const o = Array.isArray(option) ? option[0] : option;
          props.onChange(o ? { value: o.value as number, label: String(o.label) } : null);
        }}
      />
    </AntForm.Item>
  );
}

/** Fills, submits and changes one record; changes of a submitted record ask a reason per item. */
export function RecordEditor(props: RecordEditorProps) {
  const { t } = useTranslation(CRF_NS);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const renderer = useRef<CrfRendererHandle>(null);
  const [issues, setIssues] = useState<ItemIssue[] | undefined>();
  const [subject, setSubject] = useState(props.subjectCode ?? '');
  const [patient, setPatient] = useState<RemoteOption | null>(null);
  const [subjectError, setSubjectError] = useState<string | null>(null);
  const [linkTo, setLinkTo] = useState<RemoteOption | null>(null);
  const unsaved = useUnsavedChanges();
  const [busy, setBusy] = useState(false);
  // A new record was stored and its own page is on its way: typing here meanwhile would be
  // lost, so this editor stays read-only until it is shown another record.
  const [storedFrom, setStoredFrom] = useState<number | 'new' | null>(null);
  const handedOver = storedFrom === (props.recordId ?? 'new');
  const [reasonsFor, setReasonsFor] = useState<Array<{ key: string; title: string }> | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [reasonForm] = AntForm.useForm<Record<string, string>>();

  const form = useQuery({
    queryKey: ['crf', 'form', props.formId],
    queryFn: () => crfApi.form(props.formId),
  });
  const record = useQuery({
    queryKey: ['crf', 'record', props.recordId],
    queryFn: () => crfApi.record(props.recordId!),
    enabled: !!props.recordId,
  });
  const latest = form.data?.latestVersion ?? 0;
  // The form by name and version in the page's tab: the record's own version, or the one a new record gets.
  const tabVersion = props.recordId ? record.data?.version.version : latest || undefined;
  useTabObject(form.data && tabVersion ? `${form.data.name} v${tabVersion}` : undefined);
  const version = useQuery({
    queryKey: ['crf', 'version', props.formId, latest],
    queryFn: () => crfApi.version(props.formId, latest),
    enabled: !props.recordId && latest > 0,
  });
  const history = useQuery({
    queryKey: ['crf', 'history', props.recordId],
    queryFn: () => crfApi.history(props.recordId!),
    enabled: !!props.recordId && historyOpen,
  });

  const definition: Form | undefined = props.recordId
    ? record.data?.version.definition
    : version.data?.definition;
  const rec = record.data?.record;
  if (!definition) return <Spin style={{ display: 'block', margin: 48 }} />;

  const items = itemsByKey(definition);
  const titleOf = (key: string) => items.get(key)?.title ?? key;

  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: ['crf', 'record', props.recordId] });
    await qc.invalidateQueries({ queryKey: ['crf', 'history', props.recordId] });
  };

  /** The subject of a new record: the page's patient, the picked patient or (free link) a code. */
  const subjectMissing = () => {
    if (rec || props.patientId) return false;
    if (props.free ? subject.trim() : patient) return false;
    setSubjectError(props.free ? t('subject.codeRequired') : t('subject.required'));
    return true;
  };

  const run = async (submit: boolean, reasons?: Record<string, string>) => {
    const snap = renderer.current!.snapshot();
    const noSubject = subjectMissing();
    if (submit || (rec && rec.status !== 'draft')) {
      const found = renderer.current!.validate();
      if (found.length || noSubject) return;
    }
    if (noSubject) return;
    setBusy(true);
    try {
      if (!rec) {
        const made = await crfApi.createRecord(props.formId, {
          subjectCode: props.free ? subject.trim() : undefined,
          patientId: props.patientId ?? (patient ? Number(patient.value) : undefined),
          answers: snap.answers,
          methods: snap.methods,
          submit,
        });
        message.success(submit ? t('records.submittedOk') : t('records.saved'));
        setStoredFrom('new');
        unsaved.markSaved();
        props.onSaved?.(made, submit);
      } else {
        const saved = await crfApi.saveRecord(rec.id, {
          answers: snap.answers,
          methods: snap.methods,
          submit,
          revision: rec.revision,
          ...(reasons ? { reasons } : {}),
        });
        message.success(submit ? t('records.submittedOk') : t('records.saved'));
        unsaved.markSaved();
        await refresh();
        props.onSaved?.(saved.record, submit);
      }
      setIssues(undefined);
    } catch (e) {
      const found = issuesOf(e);
      const field = fieldOf(e);
      if (found) setIssues(found);
      // The subject's refusal goes under the subject field, in words.
      else if (field === 'body.subjectCode' || field === 'body.patientId') setSubjectError(refusalText(e));
      else message.error(refusalText(e));
    } finally {
      setBusy(false);
    }
  };

  /** A submitted record: collect the changed items and ask a reason for each typed change. */
  const saveChanges = () => {
    if (!rec) return;
    if (renderer.current!.validate().length) return;
    const snap = renderer.current!.snapshot();
    const keys = [...new Set([...Object.keys(rec.answers), ...Object.keys(snap.answers)])].filter(
      (k) => !same(rec.answers[k], snap.answers[k]) && snap.methods[k] !== 'machine',
    );
    if (!keys.length) {
      message.info(t('records.saved'));
      unsaved.markSaved();
      return;
    }
    reasonForm.resetFields();
    setReasonsFor(keys.map((key) => ({ key, title: titleOf(key) })));
  };

  /** Links a record that carries only a code to the picked patient (its answers unchanged). */
  const link = async () => {
    if (!rec || !linkTo) return;
    setBusy(true);
    try {
      await crfApi.saveRecord(rec.id, {
        answers: rec.answers,
        methods: rec.methods as Record<string, 'machine' | 'manual'>,
        submit: false,
        revision: rec.revision,
        patientId: Number(linkTo.value),
      });
      message.success(t('subject.linked'));
      setLinkTo(null);
      await refresh();
    } catch (e) {
      setSubjectError(refusalText(e));
    } finally {
      setBusy(false);
    }
  };

  const locked = rec?.status === 'locked';
  const linkedPatient = record.data?.patient ?? null;
  // A deleted record stays readable with its history; it takes no change.
  const deleted = !!rec?.deletedAt;
  const submitted = rec && rec.status !== 'draft';

  return (
    <div>
      {deleted && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('records.deleted')}
          description={t('records.deletedInfo', {
            who: rec?.deletedByName ?? '',
            reason: rec?.deleteReason ?? '',
          })}
        />
      )}
      <Space wrap style={{ marginBottom: 16 }}>
        {rec ? (
          <>
            <SubjectLine
              name={props.patientName ?? linkedPatient?.name}
              code={rec.subjectCode || linkedPatient?.mrn || ''}
            />
            {!rec.patientId && (
              <Tooltip title={t('subject.unlinkedHint', { code: rec.subjectCode })}>
                <Tag color="warning" data-testid="crf-unlinked">
                  {t('subject.unlinked')}
                </Tag>
              </Tooltip>
            )}
            <StatusTag status={rec.status} />
            <span>
              {t('records.version')} {record.data?.version.version}
            </span>
          </>
        ) : props.patientId ? (
          props.patientName ? (
            <SubjectLine name={props.patientName} code="" />
          ) : null
        ) : props.free ? (
          <AntForm.Item
            label={t('records.subjectCode')}
            required
            validateStatus={subjectError ? 'error' : undefined}
            help={subjectError ?? undefined}
            style={{ marginBottom: 0 }}
          >
            <Input
              id="crf-subject"
              style={{ width: 220 }}
              placeholder={t('records.subjectCode')}
              value={subject}
              disabled={busy || handedOver}
              onChange={(e) => {
                setSubject(e.target.value);
                setSubjectError(null);
                unsaved.markDirty();
              }}
            />
          </AntForm.Item>
        ) : (
          <PatientPicker
            value={patient}
            error={subjectError}
            disabled={busy || handedOver}
            onChange={(v) => {
              setPatient(v);
              setSubjectError(null);
              unsaved.markDirty();
            }}
          />
        )}
        {!locked && !deleted && !submitted && (
          <>
            {/* Stored already: a second click would start a second record. */}
            <Button onClick={() => run(false)} loading={busy} disabled={handedOver}>
              {t('records.saveDraft')}
            </Button>
            <Button type="primary" onClick={() => run(true)} loading={busy} disabled={handedOver}>
              {t('records.submit')}
            </Button>
          </>
        )}
        {submitted && !locked && !deleted && (
          <Button type="primary" onClick={saveChanges} loading={busy}>
            {t('records.saveChanges')}
          </Button>
        )}
        {!rec && (
          <Prefill
            form={definition}
            formId={props.formId}
            patientId={props.free ? null : (props.patientId ?? (patient ? Number(patient.value) : null))}
            current={() => renderer.current?.snapshot().answers ?? {}}
            onAccept={(answers) => {
              renderer.current?.apply(answers);
              unsaved.markDirty();
            }}
          />
        )}
        {rec && !props.free && (
          <>
            <Button onClick={() => setHistoryOpen(true)}>{t('records.history')}</Button>
            {!deleted && rec.status === 'submitted' && (
              <Authorized apiId="CrfHepatopathyPoc.edit">
                <Button
                  onClick={async () => {
                    await crfApi.transition(rec.id, 'verify', '');
                    await refresh();
                  }}
                >
                  {t('records.verify')}
                </Button>
              </Authorized>
            )}
            {submitted && !locked && !deleted && (
              <Authorized apiId="CrfHepatopathyPoc.disable">
                <Button
                  onClick={async () => {
                    await crfApi.transition(rec.id, 'lock', '');
                    await refresh();
                  }}
                >
                  {t('records.lock')}
                </Button>
              </Authorized>
            )}
            {locked && !deleted && (
              <Authorized apiId="CrfHepatopathyPoc.enable">
                <Button
                  onClick={() => {
                    let reason = '';
                    Modal.confirm({
                      title: t('records.unlockReason'),
                      content: <Input id="crf-unlock-reason" onChange={(e) => (reason = e.target.value)} />,
                      onOk: async () => {
                        await crfApi.transition(rec.id, 'unlock', reason);
                        await refresh();
                      },
                    });
                  }}
                >
                  {t('records.unlock')}
                </Button>
              </Authorized>
            )}
          </>
        )}
      </Space>
      {rec && !rec.patientId && !props.free && !deleted && !locked && (
        <Authorized apiId="CrfHepatopathyPoc.edit">
          <Space style={{ marginBottom: 16 }} align="start" wrap>
            <PatientPicker
              value={linkTo}
              error={subjectError}
              disabled={busy}
              onChange={(v) => {
                setLinkTo(v);
                setSubjectError(null);
              }}
            />
            <Button onClick={link} disabled={!linkTo} loading={busy} data-testid="crf-link-patient">
              {t('subject.link')}
            </Button>
          </Space>
        </Authorized>
      )}
      <CrfRenderer
        key={`${rec?.id ?? 'new'}-${rec?.revision ?? 0}`}
        ref={renderer}
        form={definition}
        answers={rec?.answers}
        methods={rec?.methods}
        // Read-only while a save is on its way: what is typed meanwhile would not be in it.
        readOnly={locked || deleted || busy || handedOver}
        issues={issues}
        onChange={unsaved.markDirty}
        upload={(file) => crfApi.upload(props.formId, file)}
      />
      <Modal
        open={!!reasonsFor}
        title={t('records.reasonTitle')}
        onCancel={() => setReasonsFor(null)}
        confirmLoading={busy}
        onOk={async () => {
          const reasons = await reasonForm.validateFields();
          setReasonsFor(null);
          await run(false, reasons);
        }}
      >
        <p>{t('records.reasonHint')}</p>
        <AntForm form={reasonForm} layout="vertical">
          {reasonsFor?.map((r) => (
            <AntForm.Item
              key={r.key}
              name={r.key}
              label={t('records.reasonFor', { item: r.title })}
              rules={[{ required: true, whitespace: true, message: t('records.reasonRequired') }]}
            >
              <Input.TextArea id={`crf-reason-${r.key}`} autoSize maxLength={CRF_REASON_MAX} />
            </AntForm.Item>
          ))}
        </AntForm>
      </Modal>
      <Drawer
        open={historyOpen}
        width={760}
        title={t('records.history')}
        onClose={() => setHistoryOpen(false)}
      >
        <Table
          size="small"
          rowKey="id"
          loading={history.isLoading}
          dataSource={history.data ?? []}
          pagination={{ pageSize: 50 }}
          columns={[
            {
              title: t('records.item'),
              dataIndex: 'itemKey',
              render: (k: string) =>
                k.startsWith('@') ? <Tag>{t(`records.event.${k}`, { defaultValue: k })}</Tag> : titleOf(k),
            },
            { title: t('records.oldValue'), dataIndex: 'oldValue', render: cell },
            { title: t('records.newValue'), dataIndex: 'newValue', render: cell },
            { title: t('records.reason'), dataIndex: 'reason', render: cell },
            { title: t('records.who'), dataIndex: 'userName' },
            {
              title: t('records.when'),
              dataIndex: 'changedAt',
              render: (v: string) => new Date(v).toLocaleString(),
            },
          ]}
        />
      </Drawer>
    </div>
  );
}
