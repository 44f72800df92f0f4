import {
  ProForm,
  ProFormGroup,
  ProFormList,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProTable,
} from '@ant-design/pro-components';
import { Alert, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { proPage } from '../../components/table/paging';
import {
  type LibraryDetail,
  libraryApi,
  SEARCH_OPS,
  type SearchCondition,
  type SearchOp,
  type SearchRequest,
  type SearchRow,
} from './api';
import { LIBRARY_NS } from './i18n';
import { useGridColumns } from './LibraryData';
import { LibraryPage } from './LibraryPage';

interface FormValues {
  match: 'all' | 'any';
  conditions: Array<{ itemKey?: string; op?: SearchOp; value?: string }>;
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const COMPARES: readonly SearchOp[] = ['>', '>=', '<', '<=', '=', '!='];

/** The search call's conditions from the form: numbers compare as numbers, the rest as text. */
export function toConditions(rows: FormValues['conditions']): SearchCondition[] {
  const out: SearchCondition[] = [];
  for (const r of rows ?? []) {
    if (!r.itemKey || !r.op) continue;
    if (r.op === 'empty' || r.op === 'notEmpty') {
      out.push({ itemKey: r.itemKey, op: r.op });
      continue;
    }
    const v = (r.value ?? '').trim();
    if (!v) continue;
    out.push({
      itemKey: r.itemKey,
      op: r.op,
      value: COMPARES.includes(r.op) && NUMBER.test(v) ? Number(v) : v,
    });
  }
  return out;
}

function Search({ lib, compact }: { lib: LibraryDetail; compact: boolean }) {
  const { t } = useTranslation(LIBRARY_NS);
  const navigate = useNavigate();
  const [query, setQuery] = useState<Pick<SearchRequest, 'conditions' | 'match'> | null>(null);
  const searchable = lib.searchFields.length
    ? lib.items.filter((i) => lib.searchFields.includes(i.key))
    : lib.items;
  const columns = useGridColumns(lib.items);
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      {!lib.searchFields.length && (
        <Alert
          type="info"
          showIcon
          message={t('search.allFields')}
          action={
            <Typography.Link
              onClick={() => navigate(`/zhuanbing-library/RetrievalConfig/Index?libraryId=${lib.id}`)}
            >
              {t('search.configure')}
            </Typography.Link>
          }
        />
      )}
      <ProForm<FormValues>
        layout={compact ? 'inline' : 'vertical'}
        initialValues={{ match: 'all', conditions: [{ op: '=' }] }}
        submitter={{ searchConfig: { submitText: t('search.run'), resetText: t('search.reset') } }}
        onReset={() => setQuery(null)}
        onFinish={async (v) => {
          setQuery({ conditions: toConditions(v.conditions), match: v.match });
          return true;
        }}
      >
        <ProFormRadio.Group
          name="match"
          label={t('search.match')}
          radioType="button"
          options={[
            { value: 'all', label: t('search.matchAll') },
            { value: 'any', label: t('search.matchAny') },
          ]}
        />
        <ProFormList
          name="conditions"
          label={t('search.conditions')}
          max={20}
          creatorButtonProps={{ creatorButtonText: t('search.add') }}
          copyIconProps={false}
        >
          <ProFormGroup>
            <ProFormSelect
              name="itemKey"
              width="sm"
              placeholder={t('search.item')}
              showSearch
              fieldProps={{ 'aria-label': t('search.item') } as object}
              options={searchable.map((i) => ({ value: i.key, label: i.title }))}
            />
            <ProFormSelect
              name="op"
              width="xs"
              allowClear={false}
              fieldProps={{ 'aria-label': t('search.op') } as object}
              options={SEARCH_OPS.map((o) => ({ value: o, label: t(`search.ops.${o}`) }))}
            />
            <ProFormText name="value" width="sm" placeholder={t('search.value')} />
          </ProFormGroup>
        </ProFormList>
      </ProForm>
      {query && (
        <ProTable<SearchRow>
          rowKey="patientId"
          search={false}
          headerTitle={t('search.results')}
          scroll={{ x: 'max-content' }}
          params={{ q: JSON.stringify(query), id: lib.id }}
          request={async (p) => {
            const r = await libraryApi.search(lib.id, {
              ...query,
              ...proPage(p),
            });
            return { data: r.items, total: r.total, success: true };
          }}
          columns={columns}
        />
      )}
    </Space>
  );
}

/**
 * zb-data-search and zb-data-search-new2: patients of a library by conditions on its indicator
 * values (only the searchable fields of RetrievalConfig when some are chosen). The new search
 * lays the conditions out in one line above the grid.
 */
export default function DataSearch({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation(LIBRARY_NS);
  return (
    <LibraryPage title={t(compact ? 'search.titleNew' : 'search.title')}>
      {(lib) => <Search lib={lib} compact={compact} />}
    </LibraryPage>
  );
}
