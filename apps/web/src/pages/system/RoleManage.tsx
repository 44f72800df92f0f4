import {
  type ActionType,
  ModalForm,
  ProFormText,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import { ROLE_DESCRIPTION_MAX, ROLE_NAME_MAX } from '@crdp/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Checkbox,
  Drawer,
  Empty,
  List,
  Popconfirm,
  Select,
  Space,
  Spin,
  Tabs,
  Tag,
  Tooltip,
  Tree,
  Typography,
} from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAlwaysAllowed } from '../../app/access';
import { currentLocale } from '../../app/i18n';
import { hasPage } from '../../app/pages';
import { textRule } from '../../app/text-rule';
import { Authorized, useHasAction } from '../../components/Authorized';
import { CutText } from '../../components/CutText';
import { type AdminRole, appApi, fieldOf, type PermissionMenu, roleApi } from './api';
import { ADMIN_NS } from './i18n';
import { useEditDeleteActions } from './RowActions';

/** Role management (spec 000 section 6): roles of the current app, their members, apps and permissions. */
export default function RoleManage() {
  const { t } = useTranslation(ADMIN_NS);
  const table = useRef<ActionType>(null);
  const rowActions = useEditDeleteActions('RoleManage');
  const [editing, setEditing] = useState<AdminRole | 'new' | null>(null);
  const [open, setOpen] = useState<AdminRole | null>(null);

  return (
    <>
      <ProTable<AdminRole>
        rowKey="RoleId"
        actionRef={table}
        headerTitle={t('role.title')}
        search={{ labelWidth: 'auto' }}
        pagination={{ defaultPageSize: 10 }}
        request={async (params) => {
          const rows = await roleApi.list(params.RoleName as string | undefined);
          return { data: rows, success: true, total: rows.length };
        }}
        toolBarRender={() => [
          <Authorized key="add" apiId="RoleManage.add">
            <Button type="primary" onClick={() => setEditing('new')} data-testid="role-add">
              {t('role.add')}
            </Button>
          </Authorized>,
        ]}
        columns={[
          { title: t('role.name'), dataIndex: 'RoleName' },
          {
            title: t('role.description'),
            dataIndex: 'Description',
            search: false,
            render: (_, r) => <CutText text={r.Description} />,
          },
          { title: t('role.users'), dataIndex: 'UserCount', search: false, width: 100 },
          {
            title: t('common.createdAt'),
            dataIndex: 'CreatedAt',
            valueType: 'dateTime',
            search: false,
            width: 180,
          },
          {
            title: t('common.actions'),
            valueType: 'option',
            width: 260,
            render: (_, role) => [
              <Button
                type="link"
                size="small"
                key="perm"
                onClick={() => setOpen(role)}
                data-testid={`role-open-${role.RoleName}`}
              >
                {t('role.permissions')}
              </Button>,
              ...rowActions({
                name: role.RoleName,
                hint: t('role.deleteHint'),
                edit: () => setEditing(role),
                remove: () => roleApi.remove(role.RoleId),
                onDone: () => table.current?.reload(),
              }),
            ],
          },
        ]}
      />
      <RoleForm
        role={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          table.current?.reload();
        }}
      />
      <Drawer
        open={!!open}
        width={860}
        destroyOnHidden
        title={open ? t('role.editPermissions', { name: open.RoleName }) : ''}
        onClose={() => {
          setOpen(null);
          table.current?.reload();
        }}
      >
        {open && (
          <Tabs
            items={[
              { key: 'perm', label: t('role.permissions'), children: <PermissionEditor role={open} /> },
              { key: 'users', label: t('role.members'), children: <RoleMembers role={open} /> },
              { key: 'apps', label: t('role.apps'), children: <RoleApps role={open} /> },
            ]}
          />
        )}
      </Drawer>
    </>
  );
}

function RoleForm({
  role,
  onClose,
  onSaved,
}: {
  role: AdminRole | 'new' | null;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation(ADMIN_NS);
  const { message } = App.useApp();
  const isNew = role === 'new';
  return (
    <ModalForm<{ RoleName: string; Description?: string }>
      title={isNew ? t('role.add') : t('role.rename')}
      open={!!role}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={role && role !== 'new' ? role : {}}
      onFinish={async (values) => {
        try {
          await roleApi.save({ ...values, ...(role && role !== 'new' ? { RoleId: role.RoleId } : {}) });
        } catch (e) {
          message.error((e as Error).message);
          if (fieldOf(e) === 'RoleName') return false;
          throw e;
        }
        message.success(t('common.saved'));
        onSaved();
        return true;
      }}
    >
      <ProFormText
        name="RoleName"
        label={t('role.name')}
        rules={[
          { required: true, whitespace: true, message: t('role.nameRequired') },
          { max: ROLE_NAME_MAX, message: t('role.nameMax') },
          textRule(currentLocale()),
        ]}
        fieldProps={{ 'data-testid': 'role-name' } as object}
      />
      <ProFormTextArea
        name="Description"
        label={t('role.description')}
        rules={[textRule(currentLocale())]}
        fieldProps={{ maxLength: ROLE_DESCRIPTION_MAX }}
      />
    </ModalForm>
  );
}

/** The menu tree of every area, each menu followed by its functions as checkboxes. */
function PermissionEditor({ role }: { role: AdminRole }) {
  const { t, i18n } = useTranslation(ADMIN_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const editable = can('RoleManage', 'edit');
  const menus = useQuery({ queryKey: ['admin', 'menus'], queryFn: roleApi.menus, staleTime: 600_000 });
  const granted = useQuery({
    queryKey: ['admin', 'role-permissions', role.RoleId],
    queryFn: () => roleApi.permissions(role.RoleId),
  });
  const [checked, setChecked] = useState<number[] | null>(null);
  const [funcs, setFuncs] = useState<Set<number> | null>(null);
  const client = useQueryClient();

  const { tree, leaves, built } = useMemo(() => buildTree(menus.data ?? []), [menus.data]);
  const menuChecked = checked ?? (granted.data?.MenuIds ?? []).filter((id) => leaves.has(id));
  const funcChecked = funcs ?? new Set(granted.data?.FuncIds ?? []);

  const save = useMutation({
    mutationFn: () =>
      roleApi.savePermissions({ RoleId: role.RoleId, MenuIds: menuChecked, FuncIds: [...funcChecked] }),
    onSuccess: () => {
      message.success(t('common.saved'));
      void client.invalidateQueries({ queryKey: ['admin', 'role-permissions', role.RoleId] });
    },
  });

  if (menus.isLoading || granted.isLoading) return <Spin />;
  const title = (m: PermissionMenu) => (i18n.language === 'en-US' ? m.TitleEn : m.Title);
  const renderNode = (node: DataNode) => {
    const m = (node as DataNode & { menu: PermissionMenu }).menu;
    return (
      <Space size="middle" wrap>
        <span>{title(m)}</span>
        {!built.has(m.MenuId) && (
          <Tooltip title={t('role.notYetAvailableHint')}>
            <Tag data-testid={`not-available-${m.RouterName}`}>{t('role.notYetAvailable')}</Tag>
          </Tooltip>
        )}
        {m.Functions.length > 0 && (
          // biome-ignore lint/a11y/noStaticElementInteractions: stops the tree from toggling the menu when a button box is clicked
          <span onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
            <Checkbox.Group
              disabled={!editable}
              value={m.Functions.filter((f) => funcChecked.has(f.FuncId)).map((f) => f.FuncId)}
              options={m.Functions.map((f) => ({
                value: f.FuncId,
                label: t(`action.${f.Action}`),
                'data-testid': `func-${f.ApiId}`,
              }))}
              onChange={(values) => {
                const next = new Set(funcChecked);
                for (const f of m.Functions) next.delete(f.FuncId);
                for (const v of values) next.add(v as number);
                setFuncs(next);
                if (values.length && leaves.has(m.MenuId) && !menuChecked.includes(m.MenuId))
                  setChecked([...menuChecked, m.MenuId]);
              }}
            />
          </span>
        )}
      </Space>
    );
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('role.permissionHint')}</Typography.Text>
      <Tree
        checkable
        selectable={false}
        disabled={!editable}
        treeData={tree}
        checkedKeys={menuChecked}
        titleRender={renderNode}
        onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(Number))}
        data-testid="permission-tree"
      />
      <Authorized apiId="RoleManage.edit">
        <Button
          type="primary"
          loading={save.isPending}
          onClick={() => save.mutate()}
          data-testid="permissions-save"
        >
          {t('role.savePermissions')}
        </Button>
      </Authorized>
    </Space>
  );
}

/**
 * The menus as a tree; `built` holds the menus with a screen (an area: one of its menus has one),
 * so a menu without a screen yet is marked as not yet available instead of offered as if it were.
 */
function buildTree(menus: PermissionMenu[]) {
  const byParent = new Map<number | null, PermissionMenu[]>();
  for (const m of menus) byParent.set(m.ParentId, [...(byParent.get(m.ParentId) ?? []), m]);
  const leaves = new Set<number>();
  const built = new Set<number>();
  const walk = (parentId: number | null): DataNode[] =>
    (byParent.get(parentId) ?? []).map((m) => {
      const children = walk(m.MenuId);
      if (!children.length) leaves.add(m.MenuId);
      if (
        hasPage(m.RouterName) ||
        isAlwaysAllowed(m.RouterName) ||
        children.some((c) => built.has(Number(c.key)))
      )
        built.add(m.MenuId);
      return {
        key: m.MenuId,
        title: m.Title,
        menu: m,
        children: children.length ? children : undefined,
      } as DataNode;
    });
  return { tree: walk(null), leaves, built };
}

/** A multiple select and an add button (with the edit function): what a role gains, members or apps. */
function PickAndAdd(props: {
  placeholder: string;
  addLabel: string;
  options: Array<{ value: number; label: string }>;
  /** Search on the server as the user types (the options are then that search's answer). */
  onSearch?: (keyword: string) => void;
  add: (ids: number[]) => Promise<unknown>;
  onAdded: () => unknown;
}) {
  const [picked, setPicked] = useState<number[]>([]);
  const add = useMutation({
    mutationFn: () => props.add(picked),
    onSuccess: () => {
      setPicked([]);
      void props.onAdded();
    },
  });
  const search = props.onSearch ? { showSearch: true, filterOption: false, onSearch: props.onSearch } : {};
  return (
    <Authorized apiId="RoleManage.edit">
      <Space.Compact style={{ width: '100%' }}>
        <Select
          mode="multiple"
          style={{ flex: 1 }}
          placeholder={props.placeholder}
          value={picked}
          onChange={setPicked}
          {...search}
          options={props.options}
        />
        <Button type="primary" disabled={!picked.length} loading={add.isPending} onClick={() => add.mutate()}>
          {props.addLabel}
        </Button>
      </Space.Compact>
    </Authorized>
  );
}

function RoleMembers({ role }: { role: AdminRole }) {
  const { t } = useTranslation(ADMIN_NS);
  const client = useQueryClient();
  const key = ['admin', 'role-users', role.RoleId];
  const users = useQuery({ queryKey: key, queryFn: () => roleApi.users(role.RoleId) });
  const [keyword, setKeyword] = useState('');
  const members = useQuery({
    queryKey: ['admin', 'members', keyword],
    queryFn: () => appApi.members(keyword),
  });
  const refresh = () => client.invalidateQueries({ queryKey: key });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <PickAndAdd
        placeholder={t('role.pickMembers')}
        addLabel={t('role.addMembers')}
        onSearch={setKeyword}
        options={(members.data ?? []).map((u) => ({
          value: u.UserId,
          label: `${u.NickName || u.UserName} (${u.UserName})`,
        }))}
        add={(ids) => roleApi.addUsers(role.RoleId, ids)}
        onAdded={refresh}
      />
      <List
        loading={users.isLoading}
        dataSource={users.data ?? []}
        locale={{ emptyText: <Empty /> }}
        renderItem={(u) => (
          <List.Item
            actions={[
              <Authorized key="rm" apiId="RoleManage.edit">
                <Popconfirm
                  title={t('common.confirmDelete', { name: u.UserName })}
                  onConfirm={async () => {
                    await roleApi.removeUser(role.RoleId, u.UserId);
                    void refresh();
                  }}
                >
                  <Button type="link" size="small">
                    {t('role.removeMember')}
                  </Button>
                </Popconfirm>
              </Authorized>,
            ]}
          >
            <List.Item.Meta title={u.NickName || u.UserName} description={u.UserName} />
          </List.Item>
        )}
      />
    </Space>
  );
}

function RoleApps({ role }: { role: AdminRole }) {
  const { t } = useTranslation(ADMIN_NS);
  const client = useQueryClient();
  const key = ['admin', 'role-apps', role.RoleId];
  const shared = useQuery({ queryKey: key, queryFn: () => roleApi.apps(role.RoleId) });
  const related = useQuery({ queryKey: ['admin', 'related-apps'], queryFn: appApi.related });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <PickAndAdd
        placeholder={t('role.pickApps')}
        addLabel={t('role.addApps')}
        options={(related.data ?? []).map((a) => ({
          value: a.AppId,
          label: `${a.AppName} (${a.AppShortName})`,
        }))}
        add={(ids) => roleApi.addApps(role.RoleId, ids)}
        onAdded={() => client.invalidateQueries({ queryKey: key })}
      />
      <List
        loading={shared.isLoading}
        dataSource={shared.data ?? []}
        renderItem={(a) => (
          <List.Item
            actions={[
              <Authorized key="rm" apiId="RoleManage.edit">
                <Button
                  type="link"
                  size="small"
                  onClick={async () => {
                    await roleApi.removeApp(role.RoleId, a.AppId);
                    void client.invalidateQueries({ queryKey: key });
                  }}
                >
                  {t('role.removeMember')}
                </Button>
              </Authorized>,
            ]}
          >
            <List.Item.Meta title={a.AppName} description={a.AppShortName} />
          </List.Item>
        )}
      />
    </Space>
  );
}
