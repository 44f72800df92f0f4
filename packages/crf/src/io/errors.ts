/**
 * Why a form file cannot be imported: the input at fault (`content`, `formOid`) and the reason in
 * Chinese and English. The server answers it as a 400 naming the field; nothing is guessed.
 */
export class FormImportError extends Error {
  constructor(
    readonly field: 'content' | 'formOid',
    readonly zh: string,
    readonly en: string,
  ) {
    super(`${field}: ${en}`);
    this.name = 'FormImportError';
  }
}

export const refuse = (field: 'content' | 'formOid', zh: string, en: string) =>
  new FormImportError(field, zh, en);
