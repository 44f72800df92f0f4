import { ModalForm, ProFormSelect, ProFormSwitch } from '@ant-design/pro-components';
import { HOSPITAL_UNIT_PARENT, type HospitalUnit, type HospitalUnitKind } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Input, Popconfirm, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { Authorized, useHasAction } from '../../components/Authorized';
import { saveThen } from '../../components/form/server-errors';
import { QueryTable } from '../../components/table/QueryTable';
import { unitApi } from './reference-api';
import { EnabledTag, ReferenceCodeField, ReferenceNameField } from './reference-fields';
import { REFERENCE_NS } from './reference-i18n';

const MENU = 'DataLakeHospitalInfoMaintenance';
type Node = HospitalUnit & { children?: Node[] };
type Editing = { unit: HospitalUnit } | { kind: HospitalUnitKind; parentId: number | null } | null;

/** The flat list as a tree: campuses, their departments, their wards (units whose parent is gone stay on top). */
function treeOf(units: HospitalUnit[]): Node[] {
  const nodes = new Map<number, Node>(units.map((u) => [u.id, { ...u }]));
  const roots: Node[] = [];
  for (const n of nodes.values()) {
    const parent = n.parentId === null ? undefined : nodes.get(n.parentId);
    if (!parent) roots.push(n);
    else if (parent.children) parent.children.push(n);
    else parent.children = [n];
  }
  return roots;
}

/**
 * 医院信息维护 (`/data-lake/hospital-info-maintenance`): the hospital's campuses, departments and
 * wards as a tree, with each department's visits in the clinical data (matched by name or code).
 */
export default function HospitalInfo() {
  const { t } = useTranslation(REFERENCE_NS);
  const word = useLabel();
  const can = useHasAction();
  const { message } = App.useApp();
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const units = useQuery({ queryKey: ['hospital-units', keyword], queryFn: () => unitApi.list(keyword) });
  const all = units.data?.items ?? [];
  const tree = useMemo(() => treeOf(all), [all]);
  const kind: HospitalUnitKind | null = editing
    ? 'unit' in editing
      ? editing.unit.kind
      : editing.kind
    : null;
  const parentKind = kind ? HOSPITAL_UNIT_PARENT[kind] : null;
  const existing = editing && 'unit' in editing ? editing.unit : null;
  const childKind = (k: HospitalUnitKind): HospitalUnitKind | null =>
    k === 'campus' ? 'department' : k === 'department' ? 'ward' : null;

  return (
    <Card
      title={t('units.title')}
      data-testid="hospital-units"
      extra={
        <Space wrap>
          <Authorized apiId={`${MENU}.add`}>
            <Button type="primary" onClick={() => setEditing({ kind: 'campus', parentId: null })}>
              {t('units.addCampus')}
            </Button>
          </Authorized>
          <Authorized apiId={`${MENU}.add`}>
            <Button onClick={() => setEditing({ kind: 'department', parentId: null })}>
              {t('units.addDepartment')}
            </Button>
          </Authorized>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('units.hint')}</Typography.Text>
        <Input.Search
          allowClear
          placeholder={t('common.keyword')}
          onSearch={(v) => setKeyword(v.trim())}
          style={{ maxWidth: 360 }}
          data-testid="units-search"
        />
        <QueryTable<Node>
          query={units}
          empty={keyword ? undefined : t('units.empty')}
          errorTestId="units-error"
          size="middle"
          rowKey="id"
          dataSource={tree}
          pagination={false}
          expandable={{ defaultExpandAllRows: true }}
          key={`${keyword}-${all.length}`}
          columns={[
            { title: t('common.name'), dataIndex: 'name' },
            {
              title: t('units.kind'),
              dataIndex: 'kind',
              render: (_, u) => <Tag>{word('hospitalUnitKind', u.kind)}</Tag>,
            },
            { title: t('common.code'), dataIndex: 'code' },
            { title: t('common.pinyin'), dataIndex: 'pinyin' },
            {
              title: t('units.visits'),
              dataIndex: 'visits',
              align: 'right',
              render: (_, u) => (u.kind === 'campus' ? '—' : u.visits.toLocaleString()),
            },
            {
              title: t('common.state'),
              dataIndex: 'enabled',
              render: (_, u) => <EnabledTag enabled={u.enabled} />,
            },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, u) => (
                <Space size={0} wrap>
                  {can(MENU, 'add') && childKind(u.kind) && (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => setEditing({ kind: childKind(u.kind)!, parentId: u.id })}
                    >
                      {t('units.add', {
                        kind: word('hospitalUnitKind', childKind(u.kind)!).toLocaleLowerCase(),
                      })}
                    </Button>
                  )}
                  {can(MENU, 'edit') && (
                    <Button type="link" size="small" onClick={() => setEditing({ unit: u })}>
                      {t('common.edit')}
                    </Button>
                  )}
                  {can(MENU, 'delete') && (
                    <Popconfirm
                      title={t('common.confirmDelete', { name: u.name })}
                      description={u.children?.length ? t('units.deleteHint') : undefined}
                      onConfirm={async () => {
                        await unitApi.remove(u.id);
                        message.success(t('common.deleted'));
                        await units.refetch();
                      }}
                    >
                      <Button type="link" size="small" danger>
                        {t('common.delete')}
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Space>
      <ModalForm<{ code: string; name: string; parentId?: number | null; enabled: boolean }>
        title={
          kind &&
          (existing
            ? t('units.edit', { kind: word('hospitalUnitKind', kind).toLocaleLowerCase() })
            : t('units.add', { kind: word('hospitalUnitKind', kind).toLocaleLowerCase() }))
        }
        open={!!editing}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        initialValues={
          existing
            ? {
                code: existing.code,
                name: existing.name,
                parentId: existing.parentId,
                enabled: existing.enabled,
              }
            : { enabled: true, parentId: editing && 'parentId' in editing ? editing.parentId : null }
        }
        onFinish={async (v) => {
          const parentId = v.parentId ?? null;
          return saveThen(
            message,
            () =>
              existing
                ? unitApi.edit(existing.id, { code: v.code, name: v.name, parentId, enabled: v.enabled })
                : unitApi.add({ kind: kind!, code: v.code, name: v.name, parentId, enabled: v.enabled }),
            t('common.saved'),
            () => {
              setEditing(null);
              return units.refetch();
            },
          );
        }}
      >
        <ReferenceNameField />
        <ReferenceCodeField />
        {parentKind && (
          <ProFormSelect
            name="parentId"
            label={t('units.parent')}
            rules={kind === 'ward' ? [{ required: true, message: t('units.parentRequired') }] : []}
            options={[
              ...(kind === 'ward'
                ? []
                : [{ value: null as unknown as number, label: t('units.parentNone') }]),
              ...all
                .filter((u) => u.kind === parentKind)
                .map((u) => ({ value: u.id, label: `${u.name}（${u.code}）` })),
            ]}
            fieldProps={{ showSearch: true, optionFilterProp: 'label' }}
          />
        )}
        <ProFormSwitch name="enabled" label={t('common.enabled')} />
      </ModalForm>
    </Card>
  );
}
