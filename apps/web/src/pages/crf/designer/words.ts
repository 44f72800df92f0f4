import type { Form, FormItem, ItemType, Problem } from '@crdp/crf';
import { useTranslation } from 'react-i18next';
import { CRF_NS } from '../../../components/crf/i18n';
import { allItems, newItem, type StarterWords } from './model';

/** Where a problem is, from its location in the form: the item it concerns and what part of it. */
export function problemPlace(at: string): { kind: string; item?: string; n?: number } {
  const m =
    /^showRules\.(\d+)$/.exec(at) ??
    /^(.+)\.(showRules|requiredRule\.rules|gapFilling|rows)\.(\d+)$/.exec(at) ??
    /^(.+)\.(fxTopicData)$/.exec(at);
  if (!m) return { kind: 'item', item: at };
  if (m.length === 2) return { kind: 'showRule', n: Number(m[1]) + 1 };
  const part = m[2]!;
  const kind =
    part === 'showRules'
      ? 'itemShowRule'
      : part === 'requiredRule.rules'
        ? 'requiredRule'
        : part === 'gapFilling'
          ? 'blank'
          : part === 'rows'
            ? 'row'
            : 'calc';
  return { kind, item: m[1]!, ...(m[3] !== undefined ? { n: Number(m[3]) + 1 } : {}) };
}

/**
 * The designer's vocabulary in the reader's language: item types, content types, display modes,
 * calculation functions, rule operators and the analysis problems, never the codes the form
 * JSON stores.
 */
export function useDesignerWords() {
  const { t } = useTranslation(CRF_NS);
  const itemType = (type: string) => t(`vocab.itemType.${type}`, { defaultValue: t('designer.type') });
  const operator = (op: string) => t(`vocab.operator.${op}`, { defaultValue: op });
  return {
    itemType,
    operator,
    textType: (v: string) => t(`vocab.textType.${v}`),
    typeQ: (v: string) => t(`vocab.typeQ.${v}`),
    forM: (v: string) => t(`vocab.forM.${v}`),
    blankType: (v: string) => t(`vocab.blankType.${v}`),
    func: (v: string) => t(`vocab.func.${v}`, { defaultValue: v }),
    /** A new item titled in words ("新单选题"), its starting options in the reader's language. */
    newItem: (form: Form, type: ItemType) =>
      newItem(
        form,
        type,
        t('vocab.newItem', { type: itemType(type) }),
        t('vocab.starter', { returnObjects: true }) as StarterWords,
      ),
    /** A problem of the analysis in words: where it is and what is wrong, items by their titles. */
    problem: (form: Form, p: Problem) => {
      const items = new Map<string, FormItem>(allItems(form).map((i) => [i.key, i]));
      const titleOf = (key: string) => items.get(key)?.title || key;
      const params = p.params ?? {};
      const words: Record<string, string | number> = { ...params };
      if (typeof params.key === 'string') words.key = titleOf(params.key);
      if (typeof params.condition === 'string') words.condition = operator(params.condition);
      if (typeof params.type === 'string') words.type = itemType(params.type);
      if (typeof params.path === 'string')
        words.path = params.path
          .split(' → ')
          .map((k) => titleOf(k))
          .join(' → ');
      const place = problemPlace(p.at);
      return {
        where: t(`problem.where.${place.kind}`, { item: place.item ? titleOf(place.item) : '', n: place.n }),
        what: t(`problem.${p.detail ?? p.code}`, words),
        /** The item to select when the person clicks the problem (a rule of the form: none). */
        item: place.item,
      };
    },
  };
}
