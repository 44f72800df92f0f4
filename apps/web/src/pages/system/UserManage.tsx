import { type ActionType, ProFormSelect, ProFormText, ProTable } from '@ant-design/pro-components';
import { ADMIN_PASSWORD_MAX, NICKNAME_MAX, USER_NAME_PATTERN } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Popconfirm, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { useSession } from '../../app/session';
import { textRule } from '../../app/text-rule';
import { Authorized, useHasAction } from '../../components/Authorized';
import { GuardedModalForm } from '../../components/form/GuardedModalForm';
import { showServerFieldError } from '../../components/form/server-errors';
import { useNarrowTable } from '../../components/table/narrow';
import { type AdminUser, fieldOf, roleApi, userApi } from './api';

/** The fields of the user form, as the server names them. */
const USER_FIELDS = ['UserName', 'NickName', 'Password', 'RoleIds'];

import { ADMIN_NS } from './i18n';

/** User management: members of the current app, their state and roles. */
export default function UserManage() {
  const { t } = useTranslation(ADMIN_NS);
  const narrowTable = useNarrowTable();
  const { message, modal } = App.useApp();
  const table = useRef<ActionType>(null);
  const can = useHasAction();
  const me = useSession().user?.UserId;
  const [editing, setEditing] = useState<AdminUser | 'new' | null>(null);
  const roles = useQuery({ queryKey: ['admin', 'roles'], queryFn: () => roleApi.list() });
  const roleOptions = (roles.data ?? []).map((r) => ({ value: r.RoleId, label: r.RoleName }));

  const toggle = async (u: AdminUser) => {
    await userApi.setEnabled(u.UserId, !u.Enabled);
    message.success(t('common.saved'));
    table.current?.reload();
  };

  return (
    <>
      <ProTable<AdminUser>
        rowKey="UserId"
        actionRef={table}
        headerTitle={t('user.title')}
        search={{ labelWidth: 'auto' }}
        pagination={{ defaultPageSize: 10, showSizeChanger: true }}
        request={async (params) => {
          const r = await userApi.list({
            PageIndex: params.current ?? 1,
            PageSize: params.pageSize ?? 10,
            Keyword: (params.keyword as string | undefined) || undefined,
            Enabled: params.Enabled === undefined ? undefined : params.Enabled === 'true',
            RoleId: params.RoleId ? Number(params.RoleId) : undefined,
          });
          return { data: r.List, total: r.Total, success: true };
        }}
        toolBarRender={() => [
          <Authorized key="add" apiId="UserManage.add">
            <Button type="primary" onClick={() => setEditing('new')} data-testid="user-add">
              {t('user.add')}
            </Button>
          </Authorized>,
        ]}
        {...narrowTable}
        columns={[
          { title: t('common.keyword'), dataIndex: 'keyword', hideInTable: true },
          { title: t('user.userName'), dataIndex: 'UserName', search: false },
          { title: t('user.nickName'), dataIndex: 'NickName', search: false },
          {
            title: t('user.roles'),
            dataIndex: 'RoleId',
            valueType: 'select',
            fieldProps: { options: roleOptions },
            render: (_, u) => u.Roles.map((r) => <Tag key={r.RoleId}>{r.RoleName}</Tag>),
          },
          {
            title: t('common.state'),
            dataIndex: 'Enabled',
            valueType: 'select',
            valueEnum: {
              true: { text: t('common.enabled'), status: 'Success' },
              false: { text: t('common.disabled'), status: 'Default' },
            },
            render: (_, u) =>
              u.Enabled ? (
                <Tag color="success">{t('common.enabled')}</Tag>
              ) : (
                <Tag>{t('common.disabled')}</Tag>
              ),
          },
          { title: t('user.lastLogin'), dataIndex: 'LastLoginAt', valueType: 'dateTime', search: false },
          {
            title: t('common.actions'),
            valueType: 'option',
            width: 240,
            render: (_, u) => [
              can('UserManage', 'edit') && (
                <Button
                  type="link"
                  size="small"
                  key="edit"
                  onClick={() => setEditing(u)}
                  data-testid={`user-edit-${u.UserName}`}
                >
                  {t('common.edit')}
                </Button>
              ),
              u.Enabled && can('UserManage', 'disable') && (
                <Popconfirm
                  key="off"
                  title={t('user.disableConfirm', { name: u.UserName })}
                  onConfirm={() => toggle(u)}
                >
                  <Button type="link" size="small" data-testid={`user-disable-${u.UserName}`}>
                    {t('common.disable')}
                  </Button>
                </Popconfirm>
              ),
              !u.Enabled && can('UserManage', 'enable') && (
                <Button
                  type="link"
                  size="small"
                  key="on"
                  onClick={() => toggle(u)}
                  data-testid={`user-enable-${u.UserName}`}
                >
                  {t('common.enable')}
                </Button>
              ),
              // One's own password is changed with the old one (avatar menu → change password);
              // the server refuses a reset of one's own password without it.
              can('UserManage', 'edit') && u.UserId !== me && (
                <Popconfirm
                  key="reset"
                  title={t('user.resetConfirm', { name: u.UserName })}
                  onConfirm={async () => {
                    const r = await userApi.resetPassword(u.UserId);
                    modal.success({
                      title: t('user.resetPassword'),
                      content: (
                        <>
                          {t('user.resetDone')}{' '}
                          <Typography.Text copyable code>
                            {r.Password}
                          </Typography.Text>
                        </>
                      ),
                    });
                  }}
                >
                  <Button type="link" size="small">
                    {t('user.resetPassword')}
                  </Button>
                </Popconfirm>
              ),
            ],
          },
        ]}
      />
      <UserForm
        user={editing}
        roleOptions={roleOptions}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          table.current?.reload();
        }}
      />
    </>
  );
}

interface UserValues {
  UserName: string;
  NickName?: string;
  Password?: string;
  RoleIds: number[];
}

function UserForm({
  user,
  roleOptions,
  onClose,
  onSaved,
}: {
  user: AdminUser | 'new' | null;
  roleOptions: Array<{ value: number; label: string }>;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation(ADMIN_NS);
  const { message } = App.useApp();
  const isNew = user === 'new';
  const existing = user && user !== 'new' ? user : null;
  const [form] = Form.useForm<UserValues>();
  return (
    <GuardedModalForm<UserValues>
      form={form}
      title={isNew ? t('user.add') : t('user.edit')}
      open={!!user}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={
        existing
          ? {
              UserName: existing.UserName,
              NickName: existing.NickName,
              RoleIds: existing.Roles.map((r) => r.RoleId),
            }
          : { RoleIds: [] }
      }
      onFinish={async (values) => {
        try {
          await userApi.save({ ...values, ...(existing ? { UserId: existing.UserId } : {}) });
        } catch (e) {
          // A refusal naming a field of this form is shown under that field.
          if (showServerFieldError(form, e, USER_FIELDS)) return false;
          message.error((e as Error).message);
          if (fieldOf(e)) return false;
          throw e;
        }
        message.success(t('common.saved'));
        onSaved();
        return true;
      }}
    >
      <ProFormText
        name="UserName"
        label={t('user.userName')}
        rules={[
          { required: true, message: t('user.userNameRequired') },
          { pattern: USER_NAME_PATTERN, message: t('user.userNameRule') },
        ]}
        fieldProps={{ 'data-testid': 'user-name' } as object}
      />
      <ProFormText
        name="NickName"
        label={t('user.nickName')}
        rules={[textRule(currentLocale())]}
        fieldProps={{ maxLength: NICKNAME_MAX }}
      />
      {isNew && (
        <ProFormText.Password
          name="Password"
          label={t('user.password')}
          extra={t('user.passwordHint')}
          rules={[{ required: true, message: t('user.passwordRequired') }]}
          fieldProps={
            {
              autoComplete: 'new-password',
              maxLength: ADMIN_PASSWORD_MAX,
              'data-testid': 'user-password',
            } as object
          }
        />
      )}
      <ProFormSelect
        name="RoleIds"
        label={t('user.roles')}
        mode="multiple"
        options={roleOptions}
        fieldProps={{ 'data-testid': 'user-roles' } as object}
      />
    </GuardedModalForm>
  );
}
