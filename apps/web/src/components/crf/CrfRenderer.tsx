import {
  childrenOf,
  createFormEngine,
  type Form,
  type FormElement,
  type FormEngine,
  type FormItem,
  type FormSnapshot,
  formItems,
  type Issue,
  isItem,
} from '@crdp/crf';
import { Alert, Form as AntForm, Card, Tag, Typography } from 'antd';
import { forwardRef, memo, useCallback, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ItemControl, type UploadedFile } from './ItemControl';
import { CRF_NS } from './i18n';
import { LinkButton } from './LinkButton';

/** An issue as the server or the engine reports it: enough to place it next to its item. */
export interface ItemIssue {
  key: string;
  page: number;
  question: number;
  message: string;
}

export interface CrfRendererHandle {
  snapshot(): FormSnapshot;
  /** Runs the engine's submit check, shows the issues at the items and returns them. */
  validate(): ItemIssue[];
  /** Replaces answers (prefill); the given methods mark them machine. */
  apply(answers: Record<string, unknown>): void;
}

export interface CrfRendererProps {
  form: Form;
  answers?: Record<string, unknown> | undefined;
  methods?: Record<string, string> | undefined;
  readOnly?: boolean;
  /** Issues the server answered, shown like the engine's. */
  issues?: ItemIssue[] | undefined;
  upload?: ((file: File) => Promise<UploadedFile>) | undefined;
  onChange?: (() => void) | undefined;
}

const on = (f: unknown) => f === true || f === 1 || f === '1' || f === 'true';
const isComputed = (item: FormItem) =>
  !!item.fxTopicData && !(item.fxRadio === false || item.fxRadio === 0 || item.fxRadio === '0');

export function toItemIssues(issues: Issue[], locale: string): ItemIssue[] {
  return issues
    .filter((i) => i.severity === 'error')
    .map((i) => ({
      key: i.key,
      page: i.page,
      question: i.question,
      message: locale === 'en-US' ? i.messageEn : i.message,
    }));
}

/**
 * Renders a form with the CRF engine: live show/hide, computed values, required marks, and
 * the engine's messages next to each item with a summary on submit. The engine decides; the
 * component only draws what it says.
 */
export const CrfRenderer = forwardRef<CrfRendererHandle, CrfRendererProps>(function CrfRenderer(props, ref) {
  const { t, i18n } = useTranslation(CRF_NS);
  const { form, readOnly = false } = props;
  const engineRef = useRef<FormEngine | null>(null);
  const [tick, setTick] = useState(0);
  const [ownIssues, setOwnIssues] = useState<ItemIssue[] | null>(null);
  // One engine per form and loaded answers: typing does not rebuild it.
  const engine = useMemo(() => {
    const e = createFormEngine(form, props.answers ?? {}, { methods: props.methods ?? {} });
    engineRef.current = e;
    return e;
  }, [form, props.answers, props.methods]);

  const onChange = props.onChange;
  const change = useCallback(
    (key: string, value: unknown) => {
      if (engineRef.current?.setAnswer(key, value)) {
        setTick((n) => n + 1);
        setOwnIssues((cur) => (cur ? cur.filter((i) => i.key !== key) : cur));
        onChange?.();
      }
    },
    [onChange],
  );

  useImperativeHandle(
    ref,
    () => ({
      snapshot: () => engine.snapshot(),
      validate: () => {
        const found = toItemIssues(engine.validate(), i18n.language);
        setOwnIssues(found);
        return found;
      },
      apply: (answers) => {
        for (const [k, v] of Object.entries(answers)) engine.setAnswer(k, v);
        setTick((n) => n + 1);
      },
    }),
    [engine, i18n.language],
  );

  const issues = ownIssues ?? props.issues ?? [];
  const byKey = new Map<string, string>();
  for (const i of issues) if (!byKey.has(i.key)) byKey.set(i.key, i.message);
  // The engine is mutable: `tick` counts its changes, so the snapshot follows them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick is the engine's change counter
  const snapshot = useMemo(() => engine.snapshot(), [engine, tick]);

  let question = 0;
  const renderElement = (e: FormElement, path: string): React.ReactNode => {
    if (e.key && !engine.isVisible(e.key)) return null;
    if (isItem(e)) {
      if (e.type !== 'paragraph') question += 1;
      return (
        <ItemRow
          key={e.key}
          item={e}
          number={e.type === 'paragraph' ? null : question}
          value={engine.getAnswer(e.key)}
          required={engine.isRequired(e.key)}
          computed={isComputed(e)}
          method={snapshot.methods[e.key]}
          issue={byKey.get(e.key)}
          readOnly={readOnly}
          onChange={change}
          upload={props.upload}
        />
      );
    }
    const kids = childrenOf(e).map((c, i) => renderElement(c, `${path}.${i}`));
    if (!e.title) return <div key={e.key ?? path}>{kids}</div>;
    return (
      <fieldset key={e.key ?? path} className="crf-group" id={e.key ? `crf-${e.key}` : undefined}>
        <legend>{e.title}</legend>
        {kids}
      </fieldset>
    );
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: delegates Enter of the fields inside; it is not itself a control
    <div className="crf-form" data-tick={tick} onKeyDown={enterMovesOn}>
      {ownIssues && ownIssues.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('render.summary', { count: ownIssues.length })}
          description={
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {ownIssues.map((i) => (
                <li key={`${i.key}-${i.message}`}>
                  <LinkButton
                    onClick={() =>
                      document.getElementById(`crf-item-${i.key}`)?.scrollIntoView({ block: 'center' })
                    }
                  >
                    {i.message}
                  </LinkButton>
                </li>
              ))}
            </ul>
          }
        />
      )}
      <AntForm layout="vertical" component="div">
        {form.pages.map((p, i) => {
          question = 0;
          if (p.key && !engine.isVisible(p.key)) return null;
          return (
            <Card key={p.key ?? i} title={p.title ?? `${i + 1}`} size="small" style={{ marginBottom: 16 }}>
              {childrenOf(p).map((c, j) => renderElement(c, `${i}.${j}`))}
            </Card>
          );
        })}
      </AntForm>
    </div>
  );
});

interface ItemRowProps {
  item: FormItem;
  number: number | null;
  value: unknown;
  required: boolean;
  computed: boolean;
  method: string | undefined;
  issue: string | undefined;
  readOnly: boolean;
  onChange: (key: string, value: unknown) => void;
  upload?: ((file: File) => Promise<UploadedFile>) | undefined;
}

const ItemRow = memo(function ItemRow(p: ItemRowProps) {
  const { t } = useTranslation(CRF_NS);
  if (p.item.type === 'paragraph')
    return (
      <Typography.Paragraph id={`crf-item-${p.item.key}`} type="secondary">
        {p.item.title}
      </Typography.Paragraph>
    );
  const inlineTitle = p.item.type === 'gapFilling' && /_{3,}/.test(p.item.title ?? '');
  const label = (
    <span>
      {p.number}. {inlineTitle ? '' : p.item.title}
      {p.computed && (
        <Tag color={p.method === 'manual' ? 'orange' : 'blue'} style={{ marginLeft: 8 }}>
          {p.method === 'manual' ? t('render.manual') : t('render.computed')}
        </Tag>
      )}
    </span>
  );
  return (
    <div id={`crf-item-${p.item.key}`} data-item={p.item.key}>
      <AntForm.Item
        label={label}
        required={p.required}
        validateStatus={p.issue ? 'error' : undefined}
        help={p.issue}
        htmlFor={`crf-${p.item.key}`}
      >
        <ItemControl
          item={p.item}
          value={p.value}
          computed={p.computed && !on(p.item.fxManual)}
          disabled={p.readOnly || on(p.item.readOnly)}
          onChange={p.onChange}
          upload={p.upload}
        />
      </AntForm.Item>
    </div>
  );
});

/**
 * Keyboard entry: Enter in a one-line field moves to the next field, as on paper forms typed
 * from source documents. Dropdowns, text areas and buttons keep their own Enter.
 */
function enterMovesOn(e: React.KeyboardEvent<HTMLDivElement>) {
  const el = e.target as HTMLElement;
  if (e.key !== 'Enter' || el.tagName !== 'INPUT' || el.getAttribute('role') === 'combobox') return;
  const fields = Array.from(
    e.currentTarget.querySelectorAll<HTMLElement>(
      'input:not([disabled]):not([type=hidden]), textarea:not([disabled])',
    ),
  ).filter((f) => f.offsetParent !== null);
  const next = fields[fields.indexOf(el) + 1];
  if (next) {
    e.preventDefault();
    next.focus();
  }
}

/** Every item of a form by key (titles for history and reasons). */
export function itemsByKey(form: Form): Map<string, FormItem> {
  return new Map(formItems(form).map(({ item }) => [item.key, item]));
}
