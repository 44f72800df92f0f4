import { checkPasswordPolicy } from '@crdp/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { changePassword, getPublicKey } from '../api/auth';
import { encryptPassword } from '../api/crypto';
import { endSession } from '../app/auth-flow';
import { showServerFieldError } from '../components/form/server-errors';
import { checkPasswordChange, type PasswordChangeValues } from './password-form';

/** The key of the ordered-check message: one at a time. */
const PASSWORD_CHECK = 'password-check';

/**
 * Change password (spec 000 sections 4 and 5): ordered checks, policy hint as a warning,
 * passwords encrypted with the server's public key; success signs out to /user/login.
 */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordChangeValues>();
  const [saving, setSaving] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const newPassword = Form.useWatch('password', form);
  const weak = !!newPassword && !checkPasswordPolicy(newPassword).ok;

  const close = () => {
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    const values = form.getFieldsValue();
    const problem = checkPasswordChange(values);
    if (problem) {
      // One message at a time (a second click replaces it), and the fields say where.
      message.error({ key: PASSWORD_CHECK, content: t(`password.${problem}`) });
      void form.validateFields().catch(() => undefined);
      return;
    }
    message.destroy(PASSWORD_CHECK);
    setSaving(true);
    try {
      const key = await getPublicKey();
      const [oldPwd, newPwd] = await Promise.all([
        encryptPassword(key, values.passwordO!),
        encryptPassword(key, values.password!),
      ]);
      await changePassword({ oldPwd, newPwd });
      close();
      message.success(t('password.success'));
      endSession(queryClient);
      navigate('/user/login', { replace: true });
    } catch (e) {
      // The server's refusal of the old or the new password goes under that field.
      if (showServerFieldError(form, e, [], { oldPwd: 'passwordO', newPwd: 'password' })) return;
      const insecure = e instanceof Error && e.message === 'insecure-context';
      message.error(
        insecure ? t('password.insecure') : e instanceof Error && e.message ? e.message : t('error.retry'),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={t('password.title')}
      open={open}
      onOk={submit}
      onCancel={close}
      confirmLoading={saving}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      forceRender
    >
      <Form form={form} layout="vertical" requiredMark autoComplete="off" data-testid="change-password-form">
        <Form.Item
          name="passwordO"
          label={t('password.old')}
          rules={[{ required: true, message: t('password.oldPlaceholder') }]}
        >
          <Input.Password placeholder={t('password.oldPlaceholder')} autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('password.new')}
          rules={[{ required: true, message: t('password.newPlaceholder') }]}
        >
          <Input.Password placeholder={t('password.newPlaceholder')} autoComplete="new-password" />
        </Form.Item>
        {weak && (
          <Alert type="warning" showIcon message={t('password.policy')} style={{ marginBottom: 16 }} />
        )}
        <Form.Item
          name="confirm"
          label={t('password.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('password.confirmPlaceholder') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('password.mismatchInline'))),
            }),
          ]}
        >
          <Input.Password placeholder={t('password.confirmPlaceholder')} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
