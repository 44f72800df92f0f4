import { describe, expect, it } from 'vitest';
import { fieldMessage, serverField, showServerFieldError } from './server-errors';

const refusal = (message: string, field: string, envelope = false) =>
  Object.assign(new Error(message), { body: envelope ? { code: 1, error: { message, field } } : { field } });

describe('server field errors under the form field', () => {
  it('reads the field of a REST body and of an envelope error', () => {
    expect(serverField(refusal('x', 'body.subjectCode'))).toBe('subjectCode');
    expect(serverField(refusal('x', 'params.0.UserName', true))).toBe('UserName');
    expect(serverField(new Error('plain'))).toBeUndefined();
  });

  it('drops the technical prefix and the field path from the message', () => {
    expect(fieldMessage('请求参数错误：body.subjectCode: 请填写受试者编号', 'body.subjectCode')).toBe(
      '请填写受试者编号',
    );
    expect(fieldMessage('用户名 wang 已存在', 'params.0.UserName')).toBe('用户名 wang 已存在');
    expect(fieldMessage('无法完成：code: 有 2 个课题在使用该类型', 'body.code')).toBe(
      '有 2 个课题在使用该类型',
    );
    expect(fieldMessage('Cannot be done: code: the code is in use', 'body.code')).toBe('the code is in use');
  });

  it('sets the error on the mapped field, or leaves it to the caller', () => {
    const set: unknown[] = [];
    const form = { setFields: (f: unknown[]) => void set.push(...f) };
    expect(
      showServerFieldError(form, refusal('旧密码错误', 'oldPwd', true), [], { oldPwd: 'passwordO' }),
    ).toBe(true);
    expect(set).toEqual([{ name: 'passwordO', errors: ['旧密码错误'] }]);
    expect(showServerFieldError(form, refusal('用户名已存在', 'params.0.UserName', true), ['UserName'])).toBe(
      true,
    );
    expect(showServerFieldError(form, refusal('x', 'params.0.Other', true), ['UserName'])).toBe(false);
  });
});
