import { ModalForm } from '@ant-design/pro-components';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { saveThen } from './server-errors';

/**
 * The add/edit dialog of a definition (scale, indicator template, T0 event…): titled for adding or
 * changing, filled from the one being changed, saved through `add` or `edit`, then closed with the
 * list reloaded; a refusal stays open with the server's reason. `toBody` answers null to stop
 * (after saying why).
 */
export function DefinitionForm<T extends { id: number }, V extends Record<string, unknown>, B>({
  editing,
  onClose,
  title,
  width,
  initialValues,
  toBody,
  add,
  edit,
  savedText,
  onSaved,
  children,
}: {
  /** The definition being changed, 'new' for a new one, null when closed. */
  editing: T | 'new' | null;
  onClose: () => void;
  title: { add: string; edit: string };
  width?: number;
  initialValues: (existing: T | null) => Partial<V>;
  toBody: (values: V) => B | null;
  add: (body: B) => Promise<unknown>;
  edit: (id: number, body: B) => Promise<unknown>;
  savedText: string;
  onSaved: () => Promise<unknown>;
  children: ReactNode;
}) {
  const { message } = App.useApp();
  const existing = editing && editing !== 'new' ? editing : null;
  return (
    <ModalForm<V>
      title={existing ? title.edit : title.add}
      open={!!editing}
      width={width}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={initialValues(existing)}
      onFinish={async (v) => {
        const body = toBody(v);
        if (body === null) return false;
        return saveThen(
          message,
          () => (existing ? edit(existing.id, body) : add(body)),
          savedText,
          () => {
            onClose();
            return onSaved();
          },
        );
      }}
    >
      {children}
    </ModalForm>
  );
}
