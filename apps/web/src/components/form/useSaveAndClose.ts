import { App } from 'antd';

/**
 * A modal form's save: `onFinish={(v) => saveAndClose(() => api.save(v), t('saved'), onDone)}`.
 * Runs the save, says `savedText`, calls `done` and answers true, so the dialog closes; when the
 * save fails (the client has shown why), answers false and the dialog stays open with its input.
 * For a call the client shows the refusal of. A `silent` call, whose refusal the form shows itself
 * (at its field when it names one), uses `saveThen` of `./server-errors` instead.
 */
export function useSaveAndClose() {
  const { message } = App.useApp();
  return async (save: () => Promise<unknown>, savedText: string, done: () => void): Promise<boolean> => {
    try {
      await save();
      message.success(savedText);
      done();
      return true;
    } catch {
      return false;
    }
  };
}
