import { formatMessage } from '@crdp/core';
import type { CrfSubmissionIssue, Issue } from '@crdp/crf';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** An invalid save: 400 with the engine's issues (page, question, message); nothing is stored. */
export function sendIssues(req: FastifyRequest, reply: FastifyReply, issues: Issue[]) {
  const first = issues[0]!;
  const en = req.locale === 'en-US';
  return reply.code(400).send({
    code: 400,
    data: null,
    issues: issues.map(
      (i): CrfSubmissionIssue => ({
        key: i.key,
        path: i.path,
        page: i.page,
        question: i.question,
        code: i.code,
        message: en ? i.messageEn : i.message,
        ...(i.blank !== undefined ? { blank: i.blank } : {}),
        ...(i.row !== undefined ? { row: i.row } : {}),
      }),
    ),
    message: formatMessage('crf.invalid', req.locale, {
      count: issues.length,
      first: en ? first.messageEn : first.message,
    }),
    errorCode: 'crf.invalid',
    field: `body.answers.${first.key}`,
    requestId: String(req.id),
  });
}
