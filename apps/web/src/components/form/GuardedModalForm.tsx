import { ModalForm, type ModalFormProps } from '@ant-design/pro-components';
import { App, Form } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addScreenTexts } from '../../app/i18n';

const NS = addScreenTexts(
  'modalForm',
  {
    discardTitle: '放弃未保存的内容？',
    discardBody: '这个对话框里填写的内容还没有保存，关闭后将丢失。',
    discard: '放弃并关闭',
    keep: '继续编辑',
  },
  {
    discardTitle: 'Discard what you entered?',
    discardBody: 'What you entered in this dialog has not been saved and is lost when it closes.',
    discard: 'Discard and close',
    keep: 'Keep editing',
  },
);

/** A dropdown, date panel or menu of the dialog is open: Esc is theirs, not the dialog's. */
const POPUPS = [
  '.ant-select-dropdown:not(.ant-select-dropdown-hidden)',
  '.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)',
  '.ant-dropdown:not(.ant-dropdown-hidden)',
  '.ant-cascader-dropdown:not(.ant-select-dropdown-hidden)',
].join(',');
export const popupOpen = () =>
  !!document.querySelector(POPUPS) || document.activeElement?.getAttribute('aria-expanded') === 'true';

/**
 * The modal-form behaviour every create dialog shares: Esc closes an open dropdown and nothing
 * else; closing a dialog with edits (Esc, ×, Cancel, the mask) asks first; a saved dialog closes
 * at once. Takes ModalForm's props; `open` may be controlled by the caller or left to the trigger.
 */
// biome-ignore lint/suspicious/noExplicitAny: ModalForm's own constraint on form values
export function GuardedModalForm<T extends Record<string, any>>(props: ModalFormProps<T>) {
  const { open: openProp, onOpenChange, form: formProp, onFinish, modalProps, ...rest } = props;
  const { t } = useTranslation(NS);
  const { modal } = App.useApp();
  const [own] = Form.useForm<T>();
  const form = formProp ?? own;
  const [openState, setOpenState] = useState(false);
  const controlled = openProp !== undefined;
  const open = controlled ? !!openProp : openState;
  const saved = useRef(false);
  const asking = useRef(false);

  const closeNow = () => {
    saved.current = false;
    if (!controlled) setOpenState(false);
    onOpenChange?.(false);
    // biome-ignore lint/suspicious/noExplicitAny: the caller's cancel handler gets no click event here
    modalProps?.onCancel?.(undefined as any);
  };
  const requestClose = () => {
    if (saved.current || !form.isFieldsTouched()) return closeNow();
    if (asking.current) return;
    asking.current = true;
    modal.confirm({
      title: t('discardTitle'),
      content: t('discardBody'),
      okText: t('discard'),
      okButtonProps: { danger: true },
      cancelText: t('keep'),
      onOk: closeNow,
      afterClose: () => {
        asking.current = false;
      },
    });
  };

  // The dialog's own Esc is off (it would close the dialog under an open dropdown); this one
  // runs first and lets an open dropdown take the key.
  // biome-ignore lint/correctness/useExhaustiveDependencies: requestClose reads the latest form state
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || asking.current || popupOpen()) return;
      e.stopPropagation();
      requestClose();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open]);

  return (
    <ModalForm<T>
      {...rest}
      form={form}
      open={open}
      onOpenChange={(next) => {
        if (next) {
          if (!controlled) setOpenState(true);
          onOpenChange?.(true);
        } else requestClose();
      }}
      modalProps={{ ...modalProps, onCancel: undefined, keyboard: false }}
      onFinish={async (values) => {
        const done = await onFinish?.(values);
        if (done === true) saved.current = true;
        return done;
      }}
    />
  );
}
