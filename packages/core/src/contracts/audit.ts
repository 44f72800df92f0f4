/**
 * Every action the audit trail records, as one union, so a new action cannot be written without
 * being named here, and the operation log cannot miss its label in either language (the labelling
 * layer's table, `labels/audit-actions.ts`, is typed against this list).
 *
 * The entity column says what was acted on; generic verbs (`create`, `update`, `delete`, …) are
 * used where the entity alone says enough.
 */
export const AUDIT_ACTIONS = [
  // Generic verbs, qualified by the entity.
  'create',
  'update',
  'upsert',
  'delete',
  'status',
  'settings',
  'members',
  'import',
  'export',
  'analyse',
  'enable',
  'disable',
  // Reads of patient data (HIPAA §164.312(b)).
  'read',
  'download',
  // Sign-in, sessions and access.
  'login',
  'login.failed',
  'login.disabled',
  'login.noProduct',
  'login.locked',
  'login.lockout',
  'logout',
  'app.switch',
  'password.change',
  'password.locked',
  'password.lockout',
  'session.handoff.create',
  'session.handoff.use',
  'freeAccess.create',
  'freeAccess.use',
  'freeAccess.revoke',
  'access.denied',
  // Administration.
  'admin.bootstrap',
  'config.edit',
  'backup',
  'user.add',
  'user.edit',
  'user.enable',
  'user.disable',
  'user.nameTaken',
  'user.resetPassword',
  'role.add',
  'role.edit',
  'role.delete',
  'role.permissions',
  'role.users.add',
  'role.users.delete',
  'role.apps.add',
  'role.apps.delete',
  'disease.add',
  'disease.edit',
  'disease.delete',
  // Reference data.
  'hospitalUnit.add',
  'hospitalUnit.edit',
  'hospitalUnit.delete',
  'dictionary.seed',
  'dictionary.add',
  'dictionary.edit',
  'dictionary.delete',
  'dictionary.entry.add',
  'dictionary.entry.edit',
  'dictionary.entry.delete',
  'dictionary.import',
  'dictionary.export',
  // CRF.
  'crf.form.create',
  'crf.form.draft',
  'crf.form.update',
  'crf.form.publish',
  'crf.form.archive',
  'crf.record.create',
  'crf.record.draft',
  'crf.record.submit',
  'crf.record.change',
  'crf.record.verify',
  'crf.record.lock',
  'crf.record.unlock',
  'crf.record.assign',
  'crf.record.delete',
  'crf.upload',
  'crf.export',
  // Clinical data imports.
  'import.queue',
  'import.rerun',
  'synthetic.queue',
  // Disease libraries.
  'disease_library.push',
  'disease_library.push.request',
  'disease_library.push.schedule',
  'disease_library.fill',
  'disease_library.fill.request',
  'disease_library.manual',
  'disease_library.obtainable',
  'disease_library.unobtainable',
  'disease_library.export',
  // Research subjects and multi-center topics.
  'recruit',
  'invite',
  'withdraw',
  'accept',
  'decline',
  'leave',
  // Data QC.
  'data_qc.task.finish',
  // OMOP.
  'omop.mapping.create',
  'omop.mapping.update',
  'omop.mapping.delete',
  'omop.mapping.import',
  'omop.mapping.export',
  'omop.rule.create',
  'omop.rule.update',
  'omop.rule.delete',
  'omop.rule.enable',
  'omop.rule.disable',
  'omop.rule.defaults',
  'omop.task.start',
  'omop.task.update',
  'omop.task.delete',
  'omop.task.download',
  // Jobs and schedules.
  'job.cancel',
  'job.retry',
  'schedule.run',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Whether a stored code is one of the known actions (older rows may hold others). */
export const isAuditAction = (code: string): code is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(code);
