import { PlusOutlined } from '@ant-design/icons';
import type { ResearchProjectRole } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoveIconButton } from '../../components/RemoveIconButton';
import { type AppUser, PROJECT_ROLES, researchApi } from './api';
import { RESEARCH_NS } from './i18n';

export interface TeamRow {
  userId: number;
  role: ResearchProjectRole;
}

/** The app's users, for the PI and member pickers and the member filter. */
export function useAppUsers() {
  return useQuery({ queryKey: ['research', 'users'], queryFn: researchApi.users, staleTime: 60_000 });
}

export const userLabel = (u: Pick<AppUser, 'userName' | 'nickname'>) =>
  u.nickname && u.nickname !== u.userName ? `${u.nickname} (${u.userName})` : u.userName;

/** A person as the screens show one: the display name, with the login name as secondary text. */
export function PersonName({
  userName,
  nickname,
}: {
  userName: string;
  nickname?: string | null | undefined;
}) {
  if (!userName && !nickname) return <>—</>;
  if (!nickname || nickname === userName) return <span>{userName}</span>;
  return (
    <span title={userName}>
      {nickname} <Typography.Text type="secondary">({userName})</Typography.Text>
    </span>
  );
}

/**
 * Members with their roles: a role picker per row, remove, and a row to add a user of the app.
 * With `withPi`, a member's role may be set to PI, which hands the PI over (`onPi`).
 */
export function MembersEditor({
  value,
  onChange,
  disabled,
  withPi,
  onPi,
}: {
  value: TeamRow[];
  onChange: (rows: TeamRow[]) => void;
  disabled?: boolean;
  withPi?: boolean;
  onPi?: (userId: number) => void;
}) {
  const { t } = useTranslation(RESEARCH_NS);
  const users = useAppUsers();
  const [adding, setAdding] = useState<number | undefined>();
  const [role, setRole] = useState<ResearchProjectRole>('investigator');
  const byId = new Map((users.data ?? []).map((u) => [u.userId, u]));
  const roleOptions = PROJECT_ROLES.filter((r) => withPi || r !== 'pi').map((r) => ({
    value: r,
    label: t(`roles.${r}`),
  }));
  const free = (users.data ?? []).filter((u) => !value.some((v) => v.userId === u.userId));
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Table<TeamRow>
        rowKey="userId"
        size="small"
        pagination={false}
        dataSource={value}
        data-testid="members-table"
        columns={[
          {
            title: t('team.user'),
            dataIndex: 'userId',
            render: (id: number) => {
              const u = byId.get(id);
              return u ? <PersonName userName={u.userName} nickname={u.nickname} /> : `#${id}`;
            },
          },
          {
            title: t('team.role'),
            dataIndex: 'role',
            width: 240,
            render: (r: ResearchProjectRole, row) =>
              r === 'pi' || disabled ? (
                t(`roles.${r}`)
              ) : (
                <Select<ResearchProjectRole>
                  size="small"
                  style={{ width: 200 }}
                  value={r}
                  options={roleOptions}
                  aria-label={t('team.role')}
                  onChange={(next) => {
                    if (next === 'pi' && onPi) onPi(row.userId);
                    else onChange(value.map((v) => (v.userId === row.userId ? { ...v, role: next } : v)));
                  }}
                />
              ),
          },
          {
            title: '',
            width: 60,
            render: (_, row) =>
              row.role === 'pi' || disabled ? null : (
                <RemoveIconButton
                  label={t('team.remove')}
                  titled
                  onClick={() => onChange(value.filter((v) => v.userId !== row.userId))}
                />
              ),
          },
        ]}
      />
      {!disabled && (
        <Space wrap>
          <Select
            showSearch
            allowClear
            data-testid="member-user"
            style={{ width: 240 }}
            placeholder={t('team.pickUser')}
            value={adding}
            onChange={setAdding}
            optionFilterProp="label"
            options={free.map((u) => ({ value: u.userId, label: userLabel(u) }))}
          />
          <Select
            data-testid="member-role"
            style={{ width: 180 }}
            value={role}
            onChange={setRole}
            options={roleOptions.filter((o) => o.value !== 'pi')}
          />
          <Button
            icon={<PlusOutlined />}
            data-testid="member-add"
            disabled={adding === undefined}
            onClick={() => {
              if (adding === undefined) return;
              onChange([...value, { userId: adding, role }]);
              setAdding(undefined);
            }}
          >
            {t('team.add')}
          </Button>
        </Space>
      )}
    </Space>
  );
}
