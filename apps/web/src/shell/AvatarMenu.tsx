import { KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Dropdown, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout } from '../api/auth';
import { endSession } from '../app/auth-flow';
import { useSession } from '../app/session';
import { ChangePasswordModal } from './ChangePasswordModal';

/** Avatar and nickname with 'change password' and 'log out' (spec 000 section 2). */
export function AvatarMenu({ dark }: { dark?: boolean }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [changing, setChanging] = useState(false);
  const name = user?.NickName || user?.UserName || '';

  const confirmLogout = () =>
    modal.confirm({
      title: t('header.logoutConfirmTitle'),
      content: t('header.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await logout();
        } catch (e) {
          message.error(e instanceof Error ? e.message : t('error.retry'));
          return;
        }
        endSession(queryClient);
        message.success(t('header.logoutDone'));
        navigate('/user/login', { replace: true });
      },
    });

  return (
    <>
      <Dropdown
        menu={{
          items: [
            { key: 'password', icon: <KeyOutlined />, label: t('header.changePassword') },
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, label: t('header.logout') },
          ],
          onClick: ({ key }) => (key === 'password' ? setChanging(true) : confirmLogout()),
        }}
      >
        <Space
          style={{ cursor: 'pointer', padding: '0 8px', color: dark ? '#fff' : undefined }}
          data-testid="avatar-menu"
        >
          <Avatar size="small" src={user?.HeadImage || undefined} icon={<UserOutlined />} />
          <span className="crdp-narrow-hide">{name}</span>
        </Space>
      </Dropdown>
      <ChangePasswordModal open={changing} onClose={() => setChanging(false)} />
    </>
  );
}
