import type { FormInstance } from 'antd';

/**
 * A server refusal that names a field (`field` of the REST body or of an envelope's `error`:
 * `body.subjectCode`, `params.0.UserName`, `newPwd`) goes under that field of the form, in the
 * server's words without the technical prefix, instead of a toast. One helper for every form.
 */

/** The field a failed request's body names: its last segment (`params.0.UserName` → `UserName`). */
export function serverField(error: unknown): string | undefined {
  const body = (error as { body?: { field?: unknown; error?: { field?: unknown } } } | null)?.body;
  const field = body?.error?.field ?? body?.field;
  return typeof field === 'string' && field ? field.split('.').pop() : undefined;
}

/**
 * The message to show under the field: the server's, without "请求参数错误：" / "Invalid request: "
 * (or a conflict's "无法完成：" / "Cannot be done: ")
 * and without the field path it starts with (`body.subjectCode: …`).
 */
export function fieldMessage(message: string, path?: string): string {
  let text = message.replace(
    /^(请求参数错误[：:]|无法完成[：:]|Invalid request[：:]?|Cannot be done[：:]?)\s*/i,
    '',
  );
  if (path) {
    const at = text.indexOf(`${path}: `);
    if (at >= 0) text = text.slice(at + path.length + 2);
  }
  return text.replace(/^[\w.[\]]+:\s+/, '').trim() || message;
}

/** The full field path of the body (`body.subjectCode`), for stripping it from the message. */
const fieldPath = (error: unknown) => {
  const body = (error as { body?: { field?: unknown; error?: { field?: unknown } } } | null)?.body;
  const f = body?.error?.field ?? body?.field;
  return typeof f === 'string' ? f : undefined;
};

/** The part of antd's FormInstance this needs (any Form or ProForm instance). */
// biome-ignore lint/suspicious/noExplicitAny: any form's values; only field names and errors are set
export type FieldErrorTarget = Pick<FormInstance<any>, 'setFields'> &
  Partial<Pick<FormInstance, 'scrollToField'>>;

/**
 * Puts a refusal under the form field it names. `fields` maps the server's field names to the
 * form's (`{ newPwd: 'password' }`); a name the form holds itself needs no entry. Returns
 * whether the error went under a field; when not, the caller shows it as before.
 */
export function showServerFieldError(
  form: FieldErrorTarget,
  error: unknown,
  known: readonly string[],
  fields: Record<string, string> = {},
): boolean {
  const server = serverField(error);
  if (!server) return false;
  const name = fields[server] ?? (known.includes(server) ? server : undefined);
  if (!name) return false;
  const message = error instanceof Error ? error.message : String(error);
  form.setFields([{ name, errors: [fieldMessage(message, fieldPath(error))] }]);
  form.scrollToField?.(name);
  return true;
}

/**
 * The save of a dialog form (ModalForm's `onFinish`): runs `work`; a refusal is shown in the
 * server's words, and the dialog stays open (false) when it names a field, so the person can put
 * it right; a refusal naming no field is rethrown (the dialog's own error handling).
 */
export async function saveOrShow(
  message: { error: (text: string) => unknown },
  work: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (e) {
    message.error((e as Error).message);
    if (serverField(e)) return false;
    throw e;
  }
}

/**
 * A form's save: `saveOrShow`, then the "saved" notice and what follows a save (close the form,
 * reload the list). True when saved: a ModalForm's `onFinish` answer (false keeps it open).
 */
export async function saveThen(
  message: { error: (text: string) => unknown; success: (text: string) => unknown },
  work: () => Promise<unknown>,
  savedText: string,
  after: () => unknown,
): Promise<boolean> {
  if (!(await saveOrShow(message, work))) return false;
  message.success(savedText);
  await after();
  return true;
}
